// Floating point: the builtins clang expands inline (fabs, copysign, inf, nan, isnan, isinf, isfinite, signbit, fmax via comparisons, huge_val) on a table of values.
#include <stdio.h>
#include <string.h>
static unsigned long long bits(double x) { unsigned long long b; memcpy(&b, &x, 8); return b; }
int main(void) {
    volatile double z = 0.0;
    double v[] = {1.5, -2.25, 0.0, -0.0, __builtin_inf(), -__builtin_inf(), __builtin_nan(""), z / z, 1e-310};
    for (int i = 0; i < 9; i++) {
        double x = v[i];
        printf("%016llx %016llx %016llx %d%d%d%d %d\n", bits(__builtin_fabs(x)), bits(__builtin_copysign(2.0, x)),
               bits(__builtin_copysign(x, -1.0)), __builtin_isnan(x), __builtin_isinf(x) != 0, __builtin_isfinite(x),
               __builtin_signbit(x) != 0, __builtin_isnormal(x));
    }
    float f = -0.0f;
    long double l = -3.5L;
    printf("%d %d %Lg %g\n", __builtin_signbit(f) != 0, __builtin_signbit(l) != 0, __builtin_fabsl(l), __builtin_fabsf(f));
    printf("%g %g\n", __builtin_huge_val(), -__builtin_huge_valf());
    return 0;
}
