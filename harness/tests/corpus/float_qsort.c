// Floating point: qsort of doubles and of structs keyed by a float with comparators that compare floating-point values (signed zeros, duplicates, denormals), then bsearch.
#include <stdio.h>
#include <stdlib.h>
static int by_value(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}
struct item { float key; int id; };
static int by_key_desc(const void *a, const void *b) {
    const struct item *x = a, *y = b;
    if (x->key != y->key) return x->key < y->key ? 1 : -1;
    return x->id - y->id;
}
int main(void) {
    double v[] = {3.5, -1e-310, 2.0, -0.0, 1e300, 0.1, -7.0, 2.0, 0.30000000000000004, 0.3};
    int n = sizeof v / sizeof v[0];
    qsort(v, n, sizeof v[0], by_value);
    for (int i = 0; i < n; i++) printf("%g ", v[i]);
    printf("\n");
    double key = 0.3;
    double *hit = bsearch(&key, v, n, sizeof v[0], by_value);
    printf("%ld\n", hit ? (long)(hit - v) : -1L);
    struct item it[6] = {{1.5f, 1}, {0.25f, 2}, {1.5f, 3}, {-3.0f, 4}, {100.0f, 5}, {0.25f, 6}};
    qsort(it, 6, sizeof it[0], by_key_desc);
    for (int i = 0; i < 6; i++) printf("%g:%d ", it[i].key, it[i].id);
    printf("\n");
    return hit ? (int)(hit - v) : 99;
}
