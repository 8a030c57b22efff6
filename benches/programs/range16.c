/* A loop over a 16-byte symbolic buffer that forks on a character range at every byte:
 * 2^16 = 65,536 feasible paths. The paths/second benchmark (results/engine.md). */
#include <penumbra.h>

int main(void) {
    char buf[16];
    penumbra_make_symbolic(buf, sizeof buf, "buf");
    int upper = 0;
    for (int i = 0; i < 16; i++)
        if (buf[i] > 'm')
            upper++;
    return upper;
}
