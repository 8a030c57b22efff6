// Floating point: a double and a float read from inputs (bytes given in hex), classified against thresholds with NaN and infinities; the exit status is the class.
// run: --input x=hex:000000000000f83f --input f=hex:0000803f
// run: --input x=hex:000000000000f87f --input f=hex:0000807f
// run: --input x=hex:000000000000f0ff --input f=hex:000080ff
// run: --input x=hex:0000000000000080 --input f=hex:01000000
// run: --input x=hex:9a9999999999b93f --input f=hex:cdcccc3d
#include <stdio.h>
#include "penumbra.h"
int main(void) {
    double x;
    float f;
    penumbra_make_symbolic(&x, sizeof x, "x");
    penumbra_make_symbolic(&f, sizeof f, "f");
    int cls;
    if (x != x) cls = 1;
    else if (x < -1e308) cls = 2;
    else if (x == 0 && 1 / x < 0) cls = 3;
    else if (x <= 0.1) cls = 4;
    else cls = 5;
    int fcls = f != f ? 1 : f > 3.4e38f ? 2 : f < 1e-38f && f > 0 ? 3 : 4;
    printf("%g %g %d %d\n", x, f, cls, fcls);
    return cls * 10 + fcls;
}
