// Floating point: numbers parsed from argv by hand into doubles (digits, point, exponent), summed and averaged; the exit status is the rounded mean.
// run: -- 1.5 2.25 -0.75
// run: -- 1e3 2.5e-2 100
// run: -- 0.1 0.2 0.3 0.4
// run:
#include <stdio.h>
static double parse(const char *s) {
    double sign = 1, v = 0;
    if (*s == '-') { sign = -1; s++; } else if (*s == '+') s++;
    while (*s >= '0' && *s <= '9') v = v * 10 + (*s++ - '0');
    if (*s == '.') { double p = 0.1; s++; while (*s >= '0' && *s <= '9') { v += (*s++ - '0') * p; p /= 10; } }
    if (*s == 'e' || *s == 'E') {
        s++;
        int neg = *s == '-';
        if (*s == '-' || *s == '+') s++;
        int e = 0;
        while (*s >= '0' && *s <= '9') e = e * 10 + (*s++ - '0');
        while (e-- > 0) v = neg ? v / 10 : v * 10;
    }
    return sign * v;
}
int main(int argc, char **argv) {
    double sum = 0;
    for (int i = 1; i < argc; i++) {
        double x = parse(argv[i]);
        printf("%s -> %.17g\n", argv[i], x);
        sum += x;
    }
    double mean = argc > 1 ? sum / (argc - 1) : 0;
    printf("sum %.17g mean %g\n", sum, mean);
    return (int)(mean + 0.5);
}
