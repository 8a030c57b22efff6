/* A value chosen by a symbolic condition (a select, no branch), then 30 million rounds of
 * arithmetic with constants (issue 35: 190 s and 8.8 GB under `penumbra run`; the value stays a
 * choice between two constants now, and the term store's growth is what the budgets bound). */
#include "penumbra.h"
int main(void) {
    int x;
    penumbra_make_symbolic(&x, sizeof x, "x");
    long acc = x > 0 ? 1 : 2;
    for (long i = 0; i < 30000000; i++)
        acc = acc * 3 + i;
    return acc > 100;
}
