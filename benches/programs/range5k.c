/* A range-counting loop over a 16-byte symbolic buffer: counts lower-case letters (one range
 * comparison per byte) and stops at the fifth. sum_{j<5} C(16,j) + C(16,5) = 6,885 paths.
 * The caches-on/off benchmark (results/engine.md). */
#include <penumbra.h>

int main(void) {
    unsigned char buf[16];
    penumbra_make_symbolic(buf, sizeof buf, "buf");
    int letters = 0;
    for (int i = 0; i < 16; i++) {
        if ((unsigned char)(buf[i] - 'a') < 26) {
            letters++;
            if (letters == 5)
                break;
        }
    }
    return letters;
}
