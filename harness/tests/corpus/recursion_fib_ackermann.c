// Recursion: naive and memoised Fibonacci, Ackermann for small arguments, recursive gcd and power.
#include <stdio.h>

static int calls;

static int fib(int n) {
    calls++;
    return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

static long long memo[91];
static long long fib_memo(int n) {
    if (n < 2)
        return n;
    if (memo[n])
        return memo[n];
    return memo[n] = fib_memo(n - 1) + fib_memo(n - 2);
}

static int ack(int m, int n) {
    if (m == 0)
        return n + 1;
    if (n == 0)
        return ack(m - 1, 1);
    return ack(m - 1, ack(m, n - 1));
}

static unsigned gcd(unsigned a, unsigned b) { return b == 0 ? a : gcd(b, a % b); }

static long long power(long long base, unsigned exp) {
    if (exp == 0)
        return 1;
    long long half = power(base, exp / 2);
    return exp % 2 ? half * half * base : half * half;
}

int main(void) {
    for (int i = 0; i <= 15; i += 5) {
        calls = 0;
        int f = fib(i);
        printf("fib(%d)=%d calls=%d\n", i, f, calls);
    }
    printf("fib_memo(90)=%lld\n", fib_memo(90));
    for (int m = 0; m <= 2; m++)
        for (int n = 0; n <= 3; n++)
            printf("ack(%d,%d)=%d%s", m, n, ack(m, n), n == 3 ? "\n" : " ");
    printf("ack(3,3)=%d\n", ack(3, 3));
    printf("gcd(1071,462)=%u gcd(17,5)=%u gcd(0,9)=%u\n", gcd(1071, 462), gcd(17, 5), gcd(0, 9));
    printf("3^39=%lld (-2)^63=%lld 7^0=%lld\n", power(3, 39), power(-2, 63), power(7, 0));
    return fib(10);
}
