// Floating point benchmark: a symbolic double classified against thresholds (NaN, infinities,
// signed zero, subnormals, a bucket per decade) with a conversion that may overflow: every
// path is a floating-point query.
#include <stdio.h>
#include "penumbra.h"
int main(void) {
    double x;
    penumbra_make_symbolic(&x, sizeof x, "x");
    if (x != x) return 1;
    if (x > 1.7976931348623157e308 || x < -1.7976931348623157e308) return 2;
    if (x == 0.0) return 3;
    double m = x < 0 ? -x : x;
    if (m < 2.2250738585072014e-308) return 4;
    int decade = 0;
    for (double limit = 1e-3; limit < 1e4; limit *= 10, decade++)
        if (m < limit) break;
    if ((long)(m * 100) % 7 == 3) return 40 + decade;
    return 20 + decade;
}
