// Floating point: a hand-written double-to-text conversion (digit extraction by multiplying by ten) next to printf's, and round trips through the digits.
#include <stdio.h>
static void digits(double x, int n, char *out) {
    int k = 0;
    if (x < 0) { out[k++] = '-'; x = -x; }
    long long ip = (long long)x;
    k += sprintf(out + k, "%lld.", ip);
    double frac = x - (double)ip;
    for (int i = 0; i < n; i++) { frac *= 10; int d = (int)frac; out[k++] = (char)('0' + d); frac -= d; }
    out[k] = 0;
}
int main(void) {
    double v[] = {3.14159265358979, -2.718281828, 0.1, 1234.5678, 1e-5, 0.999999999};
    char buf[64];
    int agree = 0;
    for (int i = 0; i < 6; i++) {
        digits(v[i], 12, buf);
        char ref[64];
        snprintf(ref, sizeof ref, "%.12f", v[i]);
        printf("%s %s\n", buf, ref);
        agree += buf[0] == ref[0];
    }
    return agree;
}
