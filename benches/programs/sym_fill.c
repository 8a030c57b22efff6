/* A 64 MiB buffer made symbolic, then a changed comparison of two of its bytes: the start-up
 * benchmark of results/throughput.md (issue 35: `--max-memory 200` peaked at 253 MiB, a term
 * per byte made before any budget was read). penumbra_make_symbolic above --max-sym-bytes
 * (256 KiB) ends the path early as input-too-large. */
#include <penumbra.h>
#include <stdlib.h>

int main(void) {
    size_t n = (size_t)64 << 20;
    unsigned char *p = malloc(n);
    if (!p)
        return 2;
    penumbra_make_symbolic(p, n, "p");
    return change(p[0] > p[n - 1], p[0] >= p[n - 1]);
}
