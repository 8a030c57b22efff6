// penumbra.h: change(old, new) on constants of several widths; output and exit status differ per version.
// run: --version old
// run: --version new
#include <stdio.h>
#include "penumbra.h"

int main(void) {
    int t = change(5, 10);
    long limit = change(1000000000000L, -3L);
    unsigned char byte = change((unsigned char)200, (unsigned char)7);
    short s = change((short)-1, (short)32767);
    printf("t=%d limit=%ld byte=%u s=%d\n", t, limit, byte, s);
    int sum = 0;
    for (int i = 0; i < t; i++)
        sum += i;
    printf("sum below t = %d\n", sum);
    int same = change(t * 2, t * 2);
    printf("same on both sides: %d\n", same);
    return t;
}
