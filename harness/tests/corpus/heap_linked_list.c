// Heap: a singly linked list with push, append, reverse, delete and free; malloc/free throughout.
#include <stdio.h>
#include <stdlib.h>

struct node { int value; struct node *next; };

static struct node *push(struct node *head, int v) {
    struct node *n = malloc(sizeof *n);
    n->value = v;
    n->next = head;
    return n;
}

static struct node *append(struct node *head, int v) {
    struct node *n = malloc(sizeof *n);
    n->value = v;
    n->next = NULL;
    if (!head)
        return n;
    struct node *t = head;
    while (t->next)
        t = t->next;
    t->next = n;
    return head;
}

static struct node *reverse(struct node *head) {
    struct node *prev = NULL;
    while (head) {
        struct node *next = head->next;
        head->next = prev;
        prev = head;
        head = next;
    }
    return prev;
}

static struct node *remove_all(struct node *head, int v, int *removed) {
    struct node **link = &head;
    while (*link) {
        if ((*link)->value == v) {
            struct node *dead = *link;
            *link = dead->next;
            free(dead);
            (*removed)++;
        } else {
            link = &(*link)->next;
        }
    }
    return head;
}

static void print(const char *label, const struct node *n) {
    printf("%s:", label);
    for (; n; n = n->next)
        printf(" %d", n->value);
    printf("\n");
}

static int free_list(struct node *n) {
    int count = 0;
    while (n) {
        struct node *next = n->next;
        free(n);
        n = next;
        count++;
    }
    return count;
}

int main(void) {
    struct node *list = NULL;
    for (int i = 1; i <= 5; i++)
        list = push(list, i * i);
    list = append(list, 4);
    list = append(list, -3);
    print("built", list);
    list = reverse(list);
    print("reversed", list);
    int removed = 0;
    list = remove_all(list, 4, &removed);
    list = remove_all(list, 99, &removed);
    print("without 4", list);
    list = remove_all(list, -3, &removed);
    list = remove_all(list, 25, &removed);
    print("trimmed", list);
    int freed = free_list(list);
    printf("removed=%d freed=%d\n", removed, freed);
    struct node *empty = reverse(NULL);
    print("empty", empty);
    return removed * 10 + freed;
}
