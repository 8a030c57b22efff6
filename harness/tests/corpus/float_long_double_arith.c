// Floating point: x87 extended-precision arithmetic (64-bit significand): epsilon, cancellation that double loses, long double to double rounding, products exact in long double only.
#include <stdio.h>
#include <float.h>
#include <string.h>
static void show(long double x) {
    unsigned char b[10]; memcpy(b, &x, 10);
    for (int k = 9; k >= 0; k--) printf("%02x", b[k]);
    printf(" %.21Lg\n", x);
}
int main(void) {
    long double eps = 1.0L;
    int n = 0;
    while (1.0L + eps / 2 != 1.0L) { eps /= 2; n++; }
    printf("%d %d\n", n, eps == LDBL_EPSILON);
    long double a = 1e16L, b = a + 1;
    double da = 1e16, db = da + 1;
    printf("%Lg %g\n", b - a, db - da);
    long double big = 4294967297.0L;   /* 2^32 + 1 */
    show(big * big);
    show((long double)(double)(big * big));
    show(1.0L / 3.0L);
    show(-1.0L / 7.0L);
    show(LDBL_MAX / 3);
    long double s = 0;
    for (int i = 1; i <= 1000; i++) s += 1.0L / i;
    show(s);
    double ds = (double)s;
    printf("%.17g %d\n", ds, ds == (double)s);
    return n;
}
