// Floating point benchmark: GNU seq's loop on the x87, `first + i * step` against `last` in
// `long double` for symbolic first, step and last (bounded, step positive): 80-bit
// floating-point queries (Bitwuzla's FloatingPoint 15 64) with products by the loop counter.
// Paths: the loop stops after 0 to 4 values, or runs all 5 (6 paths).
#include "penumbra.h"
int main(void) {
    long double first, step, last;
    penumbra_make_symbolic(&first, sizeof first, "first");
    penumbra_make_symbolic(&step, sizeof step, "step");
    penumbra_make_symbolic(&last, sizeof last, "last");
    penumbra_assume(first >= -1000 && first <= 1000 && last >= -1000 && last <= 1000);
    penumbra_assume(step > 0 && step <= 100);
    int printed = 0;
    for (int i = 0; i < 5; i++) {
        long double x = first + i * step;
        if (x > last)
            break;
        printed++;
    }
    return printed;
}
