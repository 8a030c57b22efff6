/* The memory benchmark: 2^17 = 131,072 paths over a 17-byte buffer, explored depth-first.
 * Peak memory must grow with the live states (a handful under DFS), not with the paths. */
#include <penumbra.h>

int main(void) {
    char buf[17];
    penumbra_make_symbolic(buf, sizeof buf, "buf");
    int upper = 0;
    for (int i = 0; i < 17; i++)
        if (buf[i] > 'm')
            upper++;
    return upper;
}
