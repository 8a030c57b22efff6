// Floating point: subnormal doubles and long doubles (gradual underflow, DBL_MIN / 2^k, products that underflow to zero, scaling back up exactly).
#include <stdio.h>
#include <float.h>
#include <string.h>
static unsigned long long bits(double x) { unsigned long long b; memcpy(&b, &x, 8); return b; }
int main(void) {
    double x = DBL_MIN;
    for (int k = 0; k <= 53; k += 13) {
        double y = x;
        for (int i = 0; i < k; i++) y /= 2;
        double back = y;
        for (int i = 0; i < k; i++) back *= 2;
        printf("%2d %016llx %.17g %d\n", k, bits(y), y, back == x);
    }
    double t = 4.9406564584124654e-324;
    printf("%016llx %016llx %016llx\n", bits(t / 2), bits(t * 0.5000001), bits(t * 1.5));
    printf("%.17g %.17g\n", 3 * t - 2 * t, (1e-300 * 1e-10) * 1e10);
    long double lx = LDBL_MIN;
    for (int i = 0; i < 10; i++) lx /= 1024;
    unsigned char b[10]; memcpy(b, &lx, 10);
    for (int k = 9; k >= 0; k--) printf("%02x", b[k]);
    printf(" %Lg\n", lx);
    float f = 1e-45f;
    printf("%a %a\n", (double)f, (double)(f * 0.75f));
    return 0;
}
