// Symbolic inputs: an int and a short from penumbra_make_symbolic, given by --input (zero when absent).
// run: --input x=42 --input k=7
// run: --input x=-5 --input k=0x10
// run: --input x=0x7fffffff --input k=-1
// run: --input x=1000
// run:
#include <stdio.h>
#include "penumbra.h"

static const char *classify(int x) {
    if (x < 0)
        return "negative";
    if (x == 0)
        return "zero";
    if (x < 100)
        return "small";
    return "large";
}

int main(void) {
    int x;
    short k;
    penumbra_make_symbolic(&x, sizeof x, "x");
    penumbra_make_symbolic(&k, sizeof k, "k");
    printf("x=%d (%s) k=%d\n", x, classify(x), k);
    int y = x * k + 1;
    printf("x*k+1=%d\n", y);
    if (y > 100)
        return 3;
    if (y < 0)
        return 2;
    return y == 1;
}
