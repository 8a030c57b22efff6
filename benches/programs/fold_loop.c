/* A symbolic value folded into itself a million times with a symbolic factor: no rewrite keeps
 * it small, so the path ends early once its term passes --max-term-weight (issue 35). */
#include "penumbra.h"
int main(void) {
    int x;
    penumbra_make_symbolic(&x, sizeof x, "x");
    long s = 1;
    for (long i = 0; i < 1000000; i++)
        s = s * x + i;
    return change(s > 0, s >= 0);
}
