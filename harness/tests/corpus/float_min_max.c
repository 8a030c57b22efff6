// Floating point: fmin/fmax/fminf/fmaxf/fminl/fmaxl (llvm.minnum/maxnum) on NaNs with payloads, a signalling NaN, signed zeros and an x87 unnormal, bit for bit (long doubles go to the C library's fminl/fmaxl natively: glibc's x86-64 rules in penumbra's models, musl's own code with --libc musl).
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
static double d(uint64_t b) { double x; memcpy(&x, &b, 8); return x; }
static uint64_t db(double x) { uint64_t b; memcpy(&b, &x, 8); return b; }
static float f(uint32_t b) { float x; memcpy(&x, &b, 4); return x; }
static uint32_t fb(float x) { uint32_t b; memcpy(&b, &x, 4); return b; }
static long double l(uint16_t hi, uint64_t lo) {
    long double x = 0;
    memcpy(&x, &lo, 8);
    memcpy((char *)&x + 8, &hi, 2);
    return x;
}
static void lb(long double x) {
    uint64_t lo;
    uint16_t hi;
    memcpy(&lo, &x, 8);
    memcpy(&hi, (char *)&x + 8, 2);
    printf(" %04x%016llx", hi, (unsigned long long)lo);
}
int main(void) {
    double dv[] = {d(0x7ff8000000000001ull), d(0xfff8000000000002ull), d(0x7ff0000000000003ull), 0.0, -0.0, 1.5};
    float fv[] = {f(0x7fc00001u), f(0xff800002u), 0.0f, -0.0f, -3.0f};
    for (int i = 0; i < 6; i++)
        for (int j = 0; j < 6; j++)
            printf("d %d %d %016llx %016llx\n", i, j, (unsigned long long)db(fmin(dv[i], dv[j])),
                   (unsigned long long)db(fmax(dv[i], dv[j])));
    for (int i = 0; i < 5; i++)
        for (int j = 0; j < 5; j++)
            printf("f %d %d %08x %08x\n", i, j, fb(fminf(fv[i], fv[j])), fb(fmaxf(fv[i], fv[j])));
    long double lv[] = {1.0L,
                        -2.5L,
                        l(0x7fff, 0x8000000000000000ull),
                        0.0L,
                        -0.0L,
                        l(0x7fff, 0xc000000000000001ull),
                        l(0xffff, 0xc000000000000002ull),
                        l(0x7fff, 0x8000000000000003ull),
                        l(0x3fff, 0x4000000000000000ull)};
    int n = sizeof lv / sizeof lv[0];
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            printf("l %d %d", i, j);
            lb(fminl(lv[i], lv[j]));
            lb(fmaxl(lv[i], lv[j]));
            printf("\n");
        }
    return 0;
}
