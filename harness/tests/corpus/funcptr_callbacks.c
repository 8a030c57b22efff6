// Function pointers: map/filter/fold callbacks, functions returning function pointers, structs holding them.
#include <stdio.h>

typedef int (*unary)(int);
typedef int (*pred)(int);
typedef int (*fold_fn)(int, int);

static int square(int x) { return x * x; }
static int negate(int x) { return -x; }
static int add3(int x) { return x + 3; }
static int is_even(int x) { return x % 2 == 0; }
static int positive(int x) { return x > 0; }
static int sum(int a, int b) { return a + b; }
static int maxf(int a, int b) { return a > b ? a : b; }

static void map(int *v, int n, unary f) {
    for (int i = 0; i < n; i++)
        v[i] = f(v[i]);
}
static int filter(const int *in, int n, int *out, pred p) {
    int k = 0;
    for (int i = 0; i < n; i++)
        if (p(in[i]))
            out[k++] = in[i];
    return k;
}
static int fold(const int *v, int n, int init, fold_fn f) {
    for (int i = 0; i < n; i++)
        init = f(init, v[i]);
    return init;
}

static unary pick(char c) {
    switch (c) {
    case 's': return square;
    case 'n': return negate;
    default: return add3;
    }
}

struct handler { const char *event; void (*fn)(const char *, int *); };
static void on_click(const char *e, int *count) { printf("click handler saw %s\n", e); *count += 1; }
static void on_key(const char *e, int *count) { printf("key handler saw %s\n", e); *count += 10; }

static void print(const char *label, const int *v, int n) {
    printf("%s:", label);
    for (int i = 0; i < n; i++)
        printf(" %d", v[i]);
    printf("\n");
}

int main(void) {
    int v[] = {1, -2, 3, -4, 5, 6};
    int n = 6;
    const char *plan = "sna";
    for (const char *c = plan; *c; c++) {
        map(v, n, pick(*c));
        print("after map", v, n);
    }
    int out[6];
    int k = filter(v, n, out, is_even);
    print("even", out, k);
    k = filter(v, n, out, positive);
    print("positive", out, k);
    printf("sum=%d max=%d\n", fold(v, n, 0, sum), fold(v, n, -1000, maxf));
    struct handler hs[] = {{"click", on_click}, {"key", on_key}, {"click", on_click}};
    int count = 0;
    for (int i = 0; i < 3; i++)
        hs[i].fn(hs[i].event, &count);
    int (*(*chooser)(char))(int) = pick;
    printf("count=%d chooser('s')(9)=%d\n", count, chooser('s')(9));
    return count;
}
