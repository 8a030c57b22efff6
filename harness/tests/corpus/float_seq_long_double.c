// Floating point: GNU seq's long double stepping (first + i * step, stop when past last, %Lg and a precision derived from the operands), with the arguments parsed by hand.
// run: -- 1 0.1 2
// run: -- 0.1 0.1 1
// run: -- -1 0.25 1
// run: -- 1e-3 1e-3 1e-2
#include <stdio.h>
static long double parse(const char *s, int *prec) {
    long double v = 0, scale = 1; int neg = 0, frac = 0, exp = 0, eneg = 0;
    *prec = 0;
    if (*s == '-') { neg = 1; s++; }
    for (; *s >= '0' && *s <= '9'; s++) v = v * 10 + (*s - '0');
    if (*s == '.') for (s++; *s >= '0' && *s <= '9'; s++) { scale /= 10; v += (*s - '0') * scale; frac++; }
    if (*s == 'e') { s++; if (*s == '-') { eneg = 1; s++; } for (; *s >= '0' && *s <= '9'; s++) exp = exp * 10 + (*s - '0'); }
    for (int i = 0; i < exp; i++) v = eneg ? v / 10 : v * 10;
    *prec = frac + (eneg ? exp : 0);
    return neg ? -v : v;
}
int main(int argc, char **argv) {
    if (argc != 4) return 2;
    int p1, p2, p3;
    long double first = parse(argv[1], &p1), step = parse(argv[2], &p2), last = parse(argv[3], &p3);
    int prec = p1 > p2 ? p1 : p2;
    long double x = first;
    int n = 0;
    for (long i = 1; x <= last; i++) {
        printf("%Lg %.*Lf\n", x, prec, x);
        x = first + i * step;
        n++;
    }
    printf("%.20Lg\n", x - last);
    return n;
}
