// Floating point: printf %e and %E (exponents of one to three digits, rounding that carries into the exponent) with widths, precisions and flags.
#include <stdio.h>
int main(void) {
    double v[] = {0.0, -0.0, 1.0, 9.5, 9.95, 99.95, 0.000123456, 123456789.0, 1e-10, 1e100, 1e-100, 1.7976931348623157e308,
                  2.2250738585072014e-308, 4.9406564584124654e-324, -7.25, 0.5, 1.5e-5, 6.02214076e23};
    const char *fmts[] = {"%e", "%.0e", "%.1e", "%.3e", "%.15e", "%#.0e", "%15.4e", "%-15.2e|", "%+e", "% .2e", "%012.3e", "%E", "%.2E"};
    for (unsigned i = 0; i < sizeof v / sizeof v[0]; i++) {
        for (unsigned j = 0; j < sizeof fmts / sizeof fmts[0]; j++) {
            printf(fmts[j], v[i]);
            putchar(' ');
        }
        putchar('\n');
    }
    return 0;
}
