// Heap/recursion: a binary search tree with insert, search, in-order walk, height, delete and free.
#include <stdio.h>
#include <stdlib.h>

struct tree { int key; int count; struct tree *left, *right; };

static struct tree *insert(struct tree *t, int key) {
    if (!t) {
        t = malloc(sizeof *t);
        t->key = key;
        t->count = 1;
        t->left = t->right = NULL;
    } else if (key < t->key) {
        t->left = insert(t->left, key);
    } else if (key > t->key) {
        t->right = insert(t->right, key);
    } else {
        t->count++;
    }
    return t;
}

static int contains(const struct tree *t, int key) {
    while (t && t->key != key)
        t = key < t->key ? t->left : t->right;
    return t != NULL;
}

static int height(const struct tree *t) {
    if (!t)
        return 0;
    int l = height(t->left), r = height(t->right);
    return 1 + (l > r ? l : r);
}

static void inorder(const struct tree *t) {
    if (!t)
        return;
    inorder(t->left);
    printf(" %d", t->key);
    if (t->count > 1)
        printf("x%d", t->count);
    inorder(t->right);
}

static struct tree *delete(struct tree *t, int key) {
    if (!t)
        return NULL;
    if (key < t->key) {
        t->left = delete(t->left, key);
    } else if (key > t->key) {
        t->right = delete(t->right, key);
    } else {
        if (!t->left || !t->right) {
            struct tree *child = t->left ? t->left : t->right;
            free(t);
            return child;
        }
        struct tree *m = t->right;
        while (m->left)
            m = m->left;
        t->key = m->key;
        t->count = m->count;
        m->count = 1;
        t->right = delete(t->right, m->key);
    }
    return t;
}

static int destroy(struct tree *t) {
    if (!t)
        return 0;
    int n = destroy(t->left) + destroy(t->right) + 1;
    free(t);
    return n;
}

int main(void) {
    int keys[] = {50, 30, 70, 20, 40, 60, 80, 30, 65, 10, 45, 70, 70};
    struct tree *root = NULL;
    for (unsigned i = 0; i < sizeof keys / sizeof keys[0]; i++)
        root = insert(root, keys[i]);
    printf("inorder:");
    inorder(root);
    printf("\nheight=%d has45=%d has46=%d\n", height(root), contains(root, 45), contains(root, 46));
    root = delete(root, 50);
    root = delete(root, 20);
    root = delete(root, 999);
    printf("after delete:");
    inorder(root);
    printf("\nroot=%d height=%d\n", root->key, height(root));
    int nodes = destroy(root);
    printf("freed %d nodes\n", nodes);
    return nodes;
}
