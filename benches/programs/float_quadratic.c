// Floating point benchmark: the roots of a x^2 + b x + c for symbolic float coefficients in
// [-100, 100] (discriminant sign, a double root, a degenerate linear case, sqrt, division):
// nonlinear floating-point queries, the hard case for bit-blasting.
#include <math.h>
#include "penumbra.h"
int main(void) {
    float a, b, c;
    penumbra_make_symbolic(&a, sizeof a, "a");
    penumbra_make_symbolic(&b, sizeof b, "b");
    penumbra_make_symbolic(&c, sizeof c, "c");
    penumbra_assume(a >= -100 && a <= 100 && b >= -100 && b <= 100 && c >= -100 && c <= 100);
    if (a == 0) {
        if (b == 0) return c == 0 ? 9 : 8;
        return -c / b > 1 ? 7 : 6;
    }
    float d = b * b - 4 * a * c;
    if (d < 0) return 0;
    if (d == 0) return 1;
    float r = (-b + __builtin_sqrtf(d)) / (2 * a);
    return r > 0 ? 2 : 3;
}
