// Floating point benchmark: the roots of a x^2 + b x + c for symbolic float coefficients in
// [-100, 100] (discriminant sign, a double root, a degenerate linear case, the vertex against
// the discriminant): nonlinear floating-point queries, the hard case for bit-blasting.
#include "penumbra.h"
int main(void) {
    float a, b, c;
    penumbra_make_symbolic(&a, sizeof a, "a");
    penumbra_make_symbolic(&b, sizeof b, "b");
    penumbra_make_symbolic(&c, sizeof c, "c");
    penumbra_assume(a >= -100 && a <= 100 && b >= -100 && b <= 100 && c >= -100 && c <= 100);
    if (a == 0) {
        if (b == 0) {
            if (c == 0) return 9;
            return 8;
        }
        if (-c / b > 1) return 7;
        return 6;
    }
    float d = b * b - 4 * a * c;
    if (d < 0) return 0;
    if (d == 0) return 1;
    float vertex = -b / (2 * a);
    if (vertex * vertex > d) return 2;
    return 3;
}
