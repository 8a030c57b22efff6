// Loops: nested for loops with break/continue, a sieve, early exit from nested loops with goto and flags.
#include <stdio.h>

int main(void) {
    char composite[200] = {0};
    int primes = 0, last = 0;
    for (int i = 2; i < 200; i++) {
        if (composite[i])
            continue;
        primes++;
        last = i;
        for (int j = i * i; j < 200; j += i)
            composite[j] = 1;
    }
    printf("primes below 200: %d, largest %d\n", primes, last);

    /* first pythagorean triple with c > 30, leaving both loops by goto */
    int fa = 0, fb = 0, fc = 0;
    for (int c = 31; c < 100; c++) {
        for (int a = 1; a < c; a++) {
            for (int b = a; b < c; b++) {
                if (a * a + b * b == c * c) {
                    fa = a; fb = b; fc = c;
                    goto found;
                }
                if (a * a + b * b > c * c)
                    break;
            }
        }
    }
found:
    printf("triple %d %d %d\n", fa, fb, fc);

    int skipped = 0, iterations = 0;
    for (int i = 0; i < 10; i++) {
        if (i % 3 == 0) {
            skipped++;
            continue;
        }
        int done = 0;
        for (int j = 0; j < 10 && !done; j++) {
            iterations++;
            if (i * j > 20)
                done = 1;
        }
    }
    printf("skipped=%d iterations=%d\n", skipped, iterations);

    unsigned count = 0;
    for (unsigned u = 10; u < 100; u--) /* unsigned countdown wraps and stops */
        count++;
    int w = 0;
    while (1) {
        if (++w >= 17)
            break;
    }
    printf("unsigned countdown=%u while=%d\n", count, w);
    return primes;
}
