/* memset and memcpy of 128 MiB, then a symbolic index into the copy: the memory-budget
 * benchmark of results/throughput.md (issue 15: 1,042 MiB when every byte was a term, and
 * --max-memory 200 did not hold). Three paths: index out of the written range (two) and in it. */
#include <penumbra.h>
#include <stdlib.h>
#include <string.h>

int main(void) {
    char *p = malloc(128 << 20), *q = malloc(128 << 20);
    if (!p || !q)
        return 2;
    memset(p, 7, 128 << 20);
    memcpy(q, p, 128 << 20);
    int k;
    penumbra_make_symbolic(&k, sizeof k, "k");
    if (k > 5 && k < (128 << 20))
        return q[k];
    return 0;
}
