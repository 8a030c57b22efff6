/* State forking: 12 symbolic bytes, each compared with a constant, give 4,096 paths; every path
 * then writes one slot of a global array of SLOTS ints chosen by its branch decisions. The
 * `fork` benchmark compiles it with -DSLOTS=16 and -DSLOTS=262144 (1 MiB): with copy-on-write
 * memory a fork costs the same whatever the size of the memory the state holds. */
#include <penumbra.h>

#ifndef SLOTS
#define SLOTS 16
#endif

int table[SLOTS];

int main(void) {
    unsigned char b[12];
    penumbra_make_symbolic(b, sizeof b, "b");
    for (int i = 0; i < SLOTS; i += SLOTS / 16)
        table[i] = i;
    unsigned slot = 0;
    for (int i = 0; i < 12; i++) {
        slot = slot * 2;
        if (b[i] > 100)
            slot++;
    }
    table[slot % SLOTS] = 1;
    return (int)(slot & 0xff);
}
