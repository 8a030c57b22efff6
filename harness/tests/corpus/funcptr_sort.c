// Function pointers: a generic quicksort over void* with comparator callbacks (ints, strings, structs).
#include <stdio.h>
#include <string.h>

typedef int (*cmp_fn)(const void *, const void *);

static void swap_bytes(char *a, char *b, size_t size) {
    for (size_t i = 0; i < size; i++) {
        char t = a[i];
        a[i] = b[i];
        b[i] = t;
    }
}

static int comparisons;
static void my_qsort(void *base, size_t n, size_t size, cmp_fn cmp) {
    if (n < 2)
        return;
    char *b = base;
    char *pivot = b + (n - 1) * size;
    size_t store = 0;
    for (size_t i = 0; i + 1 < n; i++) {
        comparisons++;
        if (cmp(b + i * size, pivot) < 0) {
            swap_bytes(b + i * size, b + store * size, size);
            store++;
        }
    }
    swap_bytes(b + store * size, pivot, size);
    my_qsort(b, store, size, cmp);
    my_qsort(b + (store + 1) * size, n - store - 1, size, cmp);
}

static int cmp_int(const void *a, const void *b) {
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}
static int cmp_int_desc(const void *a, const void *b) { return cmp_int(b, a); }
static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

struct item { char name[8]; short weight; };
static int cmp_item(const void *a, const void *b) {
    const struct item *x = a, *y = b;
    if (x->weight != y->weight)
        return x->weight - y->weight;
    return strcmp(x->name, y->name);
}

int main(void) {
    int nums[] = {42, -7, 19, 0, 2147483647, -2147483647 - 1, 19, 5, -100, 8};
    size_t n = sizeof nums / sizeof nums[0];
    my_qsort(nums, n, sizeof nums[0], cmp_int);
    for (size_t i = 0; i < n; i++)
        printf("%d ", nums[i]);
    printf("\n");
    my_qsort(nums, n, sizeof nums[0], cmp_int_desc);
    for (size_t i = 0; i < n; i++)
        printf("%d ", nums[i]);
    printf("\n");
    const char *words[] = {"pear", "apple", "fig", "banana", "cherry", "date"};
    my_qsort(words, 6, sizeof words[0], cmp_str);
    for (int i = 0; i < 6; i++)
        printf("%s ", words[i]);
    printf("\n");
    struct item items[] = {{"bolt", 5}, {"nut", 2}, {"gear", 9}, {"axle", 5}, {"cog", -1}};
    my_qsort(items, 5, sizeof items[0], cmp_item);
    for (int i = 0; i < 5; i++)
        printf("%s:%d ", items[i].name, items[i].weight);
    printf("\ncomparisons=%d\n", comparisons);
    return comparisons;
}
