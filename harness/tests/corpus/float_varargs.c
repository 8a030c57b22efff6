// Floating point: variadic functions of the program reading double and long double arguments with va_arg between integers, and va_copy.
#include <stdio.h>
#include <stdarg.h>
static double sum(int n, ...) {
    va_list ap; va_start(ap, n);
    double s = 0;
    for (int i = 0; i < n; i++) s += va_arg(ap, double);
    va_end(ap);
    return s;
}
static long double mixed(const char *kinds, ...) {
    va_list ap; va_start(ap, kinds);
    long double s = 0;
    for (const char *k = kinds; *k; k++) {
        if (*k == 'i') s += va_arg(ap, int);
        else if (*k == 'd') s += va_arg(ap, double);
        else s += va_arg(ap, long double);
    }
    va_end(ap);
    return s;
}
static double twice(int n, ...) {
    va_list ap, again;
    va_start(ap, n);
    va_copy(again, ap);
    double a = 0, b = 0;
    for (int i = 0; i < n; i++) a += va_arg(ap, double);
    for (int i = 0; i < n; i++) b -= va_arg(again, double);
    va_end(again);
    va_end(ap);
    return a * 1000 + b;
}
int main(void) {
    printf("%.17g\n", sum(4, 0.1, 0.2, 0.3, 1e-3));
    printf("%.21Lg\n", mixed("idlidl", 1, 0.5, 0.1L, 2, 1.0 / 3.0, 1.0L / 3.0L));
    float f = 1.25f;
    printf("%.17g\n", twice(3, 0.5, (double)f, 1e-3));
    return (int)sum(2, 1.5, 2.6);
}
