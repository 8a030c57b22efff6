/* A symbolic value added to itself N times (default 50,000; -DN=1000000), then a changed
 * comparison: the budgets-inside-a-path benchmark of results/throughput.md (issue 35: the sum
 * was a chain of 50,000 additions that Bitwuzla bit-blasted for a minute and 2 GB, past
 * --max-time and --max-memory; it is one product now). */
#include "penumbra.h"
#ifndef N
#define N 50000
#endif
int main(void) {
    int x;
    penumbra_make_symbolic(&x, sizeof x, "x");
    long s = 0;
    for (int i = 0; i < N; i++)
        s += x;
    return change(s > 0, s > 1);
}
