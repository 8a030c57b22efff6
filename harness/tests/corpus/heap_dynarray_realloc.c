// Heap: a growable vector with realloc (growing and shrinking), calloc zeroing, strings on the heap.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct vec { long *data; size_t len, cap; int reallocs; };

static void vec_push(struct vec *v, long x) {
    if (v->len == v->cap) {
        size_t cap = v->cap ? v->cap * 2 : 1;
        v->data = realloc(v->data, cap * sizeof *v->data);
        v->cap = cap;
        v->reallocs++;
    }
    v->data[v->len++] = x;
}

static char *concat(const char *a, const char *b) {
    size_t la = strlen(a), lb = strlen(b);
    char *r = malloc(la + lb + 1);
    memcpy(r, a, la);
    memcpy(r + la, b, lb + 1);
    return r;
}

int main(void) {
    struct vec v = {NULL, 0, 0, 0};
    long x = 1;
    for (int i = 0; i < 100; i++) {
        vec_push(&v, x);
        x = (x * 37 + 11) % 1009;
    }
    printf("len=%zu cap=%zu reallocs=%d\n", v.len, v.cap, v.reallocs);
    long sum = 0;
    for (size_t i = 0; i < v.len; i++)
        sum += v.data[i];
    printf("sum=%ld first=%ld last=%ld\n", sum, v.data[0], v.data[v.len - 1]);
    v.data = realloc(v.data, 10 * sizeof *v.data);
    v.cap = v.len = 10;
    printf("after shrink:");
    for (size_t i = 0; i < v.len; i++)
        printf(" %ld", v.data[i]);
    printf("\n");
    free(v.data);

    int *zeros = calloc(50, sizeof *zeros);
    int nonzero = 0;
    for (int i = 0; i < 50; i++)
        nonzero += zeros[i] != 0;
    printf("calloc nonzero=%d\n", nonzero);
    zeros = realloc(zeros, 60 * sizeof *zeros);
    for (int i = 50; i < 60; i++)
        zeros[i] = i;
    printf("kept zero=%d new=%d\n", zeros[49], zeros[59]);
    free(zeros);

    char *s = concat("shadow", " ");
    char *t = concat(s, "execution");
    free(s);
    printf("%s (%zu)\n", t, strlen(t));
    char *fresh = realloc(NULL, 4);
    strcpy(fresh, "abc");
    printf("realloc(NULL) works: %s\n", fresh);
    free(fresh);
    free(t);
    free(NULL);
    return (int)(sum % 200);
}
