// Floating point: naive, pairwise and Kahan sums of doubles and floats, printed exactly (%.17g, %a); the exit status is how many digits the naive sum gets right.
#include <stdio.h>
static double naive(const double *v, int n) { double s = 0; for (int i = 0; i < n; i++) s += v[i]; return s; }
static double kahan(const double *v, int n) {
    double s = 0, c = 0;
    for (int i = 0; i < n; i++) { double y = v[i] - c; double t = s + y; c = (t - s) - y; s = t; }
    return s;
}
static double pairwise(const double *v, int n) { return n == 1 ? v[0] : pairwise(v, n / 2) + pairwise(v + n / 2, n - n / 2); }
int main(void) {
    double v[1000];
    float f = 0;
    for (int i = 0; i < 1000; i++) { v[i] = 0.1 * (i % 7) + 1.0 / (i + 1); f += (float)v[i]; }
    double a = naive(v, 1000), b = kahan(v, 1000), c = pairwise(v, 1000);
    printf("%.17g %.17g %.17g %.9g\n", a, b, c, f);
    printf("%a %a %a\n", a, b, c);
    printf("%.3e\n", a - b);
    int digits = 0;
    for (double d = a - b < 0 ? b - a : a - b; d < 1 && digits < 20; d *= 10) digits++;
    return digits;
}
