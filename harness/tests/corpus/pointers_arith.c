// Pointers: arithmetic and differences, pointers to pointers, walking arrays, pointer comparisons, void* casts.
#include <stdio.h>
#include <string.h>
#include <stddef.h>

static void swap_ptrs(const char **a, const char **b) {
    const char *t = *a;
    *a = *b;
    *b = t;
}

static int *find(int *begin, int *end, int v) {
    for (int *p = begin; p != end; p++)
        if (*p == v)
            return p;
    return end;
}

int main(void) {
    int arr[10];
    for (int i = 0; i < 10; i++)
        arr[i] = i * i;
    int *begin = arr, *end = arr + 10;
    int *hit = find(begin, end, 49);
    int *miss = find(begin, end, 50);
    printf("found 49 at %td, miss==end %d, end-begin=%td\n", hit - begin, miss == end, end - begin);
    int *mid = begin + 5;
    printf("mid=%d mid[-2]=%d *(mid+3)=%d 2[arr]=%d\n", *mid, mid[-2], *(mid + 3), 2[arr]);
    printf("comparisons: %d %d %d\n", begin < mid, end > mid, mid <= begin);
    const char *a = "first", *b = "second";
    swap_ptrs(&a, &b);
    printf("after swap: %s %s\n", a, b);
    const char *words[] = {"alpha", "beta", "gamma", NULL};
    const char **pp = words;
    int total = 0;
    while (*pp) {
        total += (int)strlen(*pp);
        pp++;
    }
    printf("words=%td chars=%d\n", pp - words, total);
    char buf[16] = "abcdefghijklmno";
    char *q = buf + 15;
    while (q > buf && *--q != 'h')
        ;
    printf("h at %td\n", q - buf);
    void *vp = arr;
    int *ip = (int *)vp + 3;
    unsigned char *bp = (unsigned char *)vp;
    printf("via void*: %d, byte view of arr[1]: %d %d\n", *ip, bp[4], bp[5]);
    long longs[3] = {10, 20, 30};
    char *cp = (char *)&longs[2];
    printf("byte distance=%td elems=%td\n", cp - (char *)longs, &longs[2] - &longs[0]);
    int **ipp = &ip;
    **ipp = -1;
    printf("arr[3] via int**: %d\n", arr[3]);
    struct { int x; char tag[4]; } s = {5, "ab"}, *sp = &s;
    char *tp = sp->tag;
    printf("tag offset %td\n", tp - (char *)sp);
    return (int)(hit - begin);
}
