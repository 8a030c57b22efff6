// Floating point: NaN payloads as x86 propagates them (the first NaN operand of SSE arithmetic, quieted; the larger significand on the x87), signalling NaNs quieted, sign-only operations keeping them.
#include <stdio.h>
#include <string.h>
static double from(unsigned long long b) { double d; memcpy(&d, &b, 8); return d; }
static unsigned long long bits(double x) { unsigned long long b; memcpy(&b, &x, 8); return b; }
int main(void) {
    double q1 = from(0x7ff8000000000123ULL), q2 = from(0xfff8000000000456ULL), s1 = from(0x7ff0000000000789ULL);
    double one = 1.0;
    printf("%016llx %016llx\n", bits(q1 + one), bits(one + q1));
    printf("%016llx %016llx\n", bits(q1 * q2), bits(q2 * q1));
    printf("%016llx %016llx\n", bits(s1 - one), bits(one / s1));
    printf("%016llx %016llx\n", bits(-s1), bits(__builtin_fabs(q2)));
    float fq = (float)q1;
    unsigned fb; memcpy(&fb, &fq, 4);
    double back = fq;
    printf("%08x %016llx\n", fb, bits(back));
    long double lq = q1, ls = s1;
    unsigned char b[10];
    memcpy(b, &lq, 10);
    for (int k = 9; k >= 0; k--) printf("%02x", b[k]);
    printf(" ");
    memcpy(b, &ls, 10);
    for (int k = 9; k >= 0; k--) printf("%02x", b[k]);
    printf(" %016llx\n", bits((double)(lq + 1.0L)));
    return 0;
}
