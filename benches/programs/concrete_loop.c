/* 30 million iterations of concrete arithmetic, loads and stores, then one symbolic branch:
 * the concrete-values benchmark of results/throughput.md (issue 15: it took 2,014 MiB when
 * every constant was interned as a term). `penumbra exec` runs the same loop natively in the
 * interpreter, the floor to compare with. */
#include <penumbra.h>

int main(void) {
    unsigned h = 0, table[16] = {0};
    for (unsigned i = 0; i < 30000000; i++) {
        h = h * 31 + i;
        table[h % 16] += h;
    }
    unsigned char x;
    penumbra_make_symbolic(&x, 1, "x");
    return x == (unsigned char)(h ^ table[3]);
}
