// Floating point: round-to-nearest-even at every boundary: double to float ties, integer to float ties, long double to double, and truncating casts of halves.
#include <stdio.h>
#include <string.h>
static unsigned fbits(float f) { unsigned u; memcpy(&u, &f, 4); return u; }
int main(void) {
    double ties[] = {1.0 + 0x1p-24, 1.0 + 0x1p-23 + 0x1p-24, 1.0 + 0x1p-24 + 0x1p-40, -(1.0 + 0x1p-24), 16777217.0, 16777219.0, 3.4028235677973366e38};
    for (int i = 0; i < 7; i++) printf("%08x ", fbits((float)ties[i]));
    printf("\n");
    int ints[] = {16777217, 16777219, 33554435, -16777217, 2147483647};
    for (int i = 0; i < 5; i++) printf("%08x ", fbits((float)ints[i]));
    printf("\n");
    long double l = 1.0L + 0x1p-53L;         /* halfway between two doubles: to even */
    long double m = 1.0L + 0x1p-53L + 0x1p-60L;
    long double n = 1.0L + 3 * 0x1p-53L;
    printf("%a %a %a\n", (double)l, (double)m, (double)n);
    double halves[] = {0.5, 1.5, 2.5, -0.5, -1.5, 1e15 + 0.5};
    for (int i = 0; i < 6; i++) printf("%lld ", (long long)halves[i]);
    printf("\n%.0f %.0f %.0f %.0f\n", 0.5, 1.5, 2.5, 3.5);
    return 0;
}
