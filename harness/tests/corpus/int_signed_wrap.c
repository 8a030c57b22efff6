// Integers: signed overflow wraps under -fwrapv (INT_MAX + 1, LLONG_MAX + 1, -INT_MIN, wrapping products).
#include <stdio.h>
#include <limits.h>

static int add(int a, int b) { return a + b; }
static int mul(int a, int b) { return a * b; }

int main(void) {
    int max = INT_MAX;
    int min = INT_MIN;
    printf("INT_MAX + 1 = %d\n", add(max, 1));
    printf("INT_MIN - 1 = %d\n", add(min, -1));
    printf("-INT_MIN = %d\n", -min);
    printf("INT_MAX * 2 = %d\n", mul(max, 2));
    printf("65536 * 65536 = %d\n", mul(65536, 65536));
    printf("46341 * 46341 = %d\n", mul(46341, 46341));
    long long lmax = LLONG_MAX;
    printf("LLONG_MAX + 1 = %lld\n", lmax + 1);
    long long lmin = lmax + 1;
    printf("LLONG_MIN - 1 = %lld\n", lmin - 1);
    long long lm = LLONG_MIN;
    printf("-LLONG_MIN = %lld, LLONG_MIN * -1 = %lld\n", -lm, lm * -1);
    short s = SHRT_MAX;
    s++; /* promoted to int, then converted back: wraps to SHRT_MIN */
    printf("SHRT_MAX + 1 stored in short = %d\n", s);
    signed char c = 127;
    c += 1;
    printf("SCHAR_MAX + 1 stored in signed char = %d\n", c);
    int acc = 1;
    for (int i = 0; i < 40; i++)
        acc = acc * 3 + 1;
    printf("wrapping recurrence = %d\n", acc);
    int abs_min = min < 0 ? -min : min;
    printf("abs(INT_MIN) by negation = %d, still negative: %d\n", abs_min, abs_min < 0);
    int x = max;
    int overflowed = x + 1 < x;
    printf("x + 1 < x for INT_MAX: %d\n", overflowed);
    return (add(max, 2) - min) & 0xff;
}
