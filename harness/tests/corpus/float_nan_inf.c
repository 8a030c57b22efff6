// Floating point: NaN, infinities and signed zeros through arithmetic and every comparison (ordered and unordered), printed with their signs as glibc prints them.
#include <stdio.h>
#include <string.h>
static unsigned long long bits(double x) { unsigned long long b; memcpy(&b, &x, 8); return b; }
int main(void) {
    volatile double zero = 0.0, one = 1.0;
    double vals[6];
    vals[0] = zero / zero;   /* the x86 default NaN: negative */
    vals[1] = one / zero;
    vals[2] = -one / zero;
    vals[3] = -zero;
    vals[4] = zero;
    vals[5] = vals[1] - vals[1];
    const char *names[6] = {"0/0", "1/0", "-1/0", "-0", "+0", "inf-inf"};
    for (int i = 0; i < 6; i++) {
        printf("%-8s %016llx %f %e %g\n", names[i], bits(vals[i]), vals[i], vals[i], vals[i]);
        for (int j = 0; j < 6; j++) {
            double a = vals[i], b = vals[j];
            printf("%d%d%d%d%d%d%d ", a < b, a <= b, a > b, a >= b, a == b, a != b,
                   __builtin_isunordered(a, b));
        }
        printf("\n");
    }
    printf("%g %g %g\n", 1.0 / vals[3], 1.0 / vals[4], vals[3] + vals[4]);
    printf("%d %d %d %d\n", __builtin_isnan(vals[0]), __builtin_isinf(vals[2]), __builtin_signbit(vals[3]), __builtin_isfinite(vals[1]));
    printf("%016llx %016llx\n", bits(__builtin_fabs(vals[0])), bits(-vals[0]));
    return vals[0] != vals[0] ? 3 : 4;
}
