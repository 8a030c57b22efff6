// Floating point: conversions between integers of every width and float/double/long double at the range edges (exact, rounded, truncated toward zero), without undefined casts.
#include <stdio.h>
#include <limits.h>
#include <stdint.h>
int main(void) {
    int64_t big[] = {INT64_MAX, INT64_MIN, (1LL << 53) + 1, -(1LL << 53) - 1, 123456789012345678LL, -1, 0};
    for (int i = 0; i < 7; i++) {
        double d = (double)big[i]; float f = (float)big[i]; long double l = (long double)big[i];
        printf("%lld -> %.17g %.9g %.21Lg\n", (long long)big[i], d, f, l);
    }
    uint64_t ub[] = {UINT64_MAX, (1ULL << 63) + 1025, (1ULL << 63) + 1024, 4294967295u};
    for (int i = 0; i < 4; i++)
        printf("%llu -> %.17g %.9g %.21Lg\n", (unsigned long long)ub[i], (double)ub[i], (float)ub[i], (long double)ub[i]);
    double d[] = {2147483647.9, -2147483648.9, 4294967295.5, -0.99, 0.99, 255.999, -128.5, 9007199254740993.0, 1e18, -1e18};
    for (int i = 0; i < 10; i++) {
        double x = d[i];
        if (x > -2147483649.0 && x < 2147483648.0) printf("int %d ", (int)x);
        if (x > -1.0 && x < 4294967296.0) printf("unsigned %u ", (unsigned)x);
        if (x > -129.0 && x < 128.0) printf("schar %d ", (signed char)x);
        if (x > -1.0 && x < 256.0) printf("uchar %u ", (unsigned char)x);
        if (x > -1.0 && x < 18446744073709551616.0) printf("u64 %llu ", (unsigned long long)x);
        printf("i64 %lld\n", (long long)x);
    }
    long double ld = 18446744073709551615.0L;
    printf("%llu %lld\n", (unsigned long long)ld, (long long)-9223372036854775808.0L);
    short s = -32768; unsigned short us = 65535; _Bool t = 1; char c = 'A';
    printf("%g %g %g %g %g\n", (double)s, (double)us, (double)t, (float)c, (double)(unsigned char)200);
    return (int)(d[0] / 1e8);
}
