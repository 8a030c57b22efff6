/* Forking on long paths: DEPTH constraints on `v` (each one `assume`, true under the state's
 * model, so no solver call and no fork) make every path condition DEPTH entries long before 12
 * symbolic bytes, each compared with a constant, fork it into 4,096 paths. The `fork/deep_path`
 * benchmark compiles it with -DDEPTH=2000: a fork that copies its path condition pays for its
 * length at every one of the 4,095 forks, and every query re-reads it. */
#include <penumbra.h>

#ifndef DEPTH
#define DEPTH 2000
#endif

int main(void) {
    unsigned v;
    unsigned char b[12];
    penumbra_make_symbolic(&v, sizeof v, "v");
    penumbra_make_symbolic(b, sizeof b, "b");
    for (unsigned i = 0; i < DEPTH; i++)
        penumbra_assume(v != 1000000u + i);
    int n = 0;
    for (int i = 0; i < 12; i++)
        if (b[i] > 100)
            n++;
    return n;
}
