// Floating point: Newton iterations for square and cube roots in float, double and long double, stopping on exact convergence; the exit status is the iteration count.
#include <stdio.h>
int main(void) {
    int total = 0;
    double xs[] = {2.0, 10.0, 1e-6, 12345.678};
    for (int i = 0; i < 4; i++) {
        double a = xs[i], x = a, prev = 0;
        int n = 0;
        while (x != prev && n < 100) { prev = x; x = 0.5 * (x + a / x); n++; }
        long double la = a, lx = la, lprev = 0;
        int m = 0;
        while (lx != lprev && m < 100) { lprev = lx; lx = (lx + la / lx) / 2; m++; }
        float fa = (float)a, fx = fa, fprev = 0;
        int k = 0;
        while (fx != fprev && k < 100) { fprev = fx; fx = 0.5f * (fx + fa / fx); k++; }
        double c = a;
        for (int j = 0; j < 60; j++) c = c - (c * c * c - a) / (3 * c * c);
        printf("%.17g %d %.21Lg %d %.9g %d %.17g\n", x, n, lx, m, fx, k, c);
        total += n;
    }
    return total;
}
