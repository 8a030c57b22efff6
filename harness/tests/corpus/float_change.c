// penumbra.h: change() on floating-point values and conditions: a refactoring (x * 0.5 vs x / 2.0), a changed threshold and a changed comparison, per version.
// run: --version old
// run: --version new
#include <stdio.h>
#include "penumbra.h"
int main(void) {
    double xs[] = {0.1, 0.5, 1.0, -3.0, 0.30000000000000004};
    int flags = 0;
    for (int i = 0; i < 5; i++) {
        double x = xs[i];
        double half = change(x * 0.5, x / 2.0);
        int small = change(x < 0.1, x <= 0.1);
        double limit = change(0.3, 0.30000000000000004);
        printf("%.17g %d %d\n", half, small, x >= limit);
        flags = flags * 2 + small;
    }
    return flags;
}
