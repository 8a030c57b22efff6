// Floating point: printf %g and %G choosing between fixed and scientific form by the exponent, trailing zeros removed unless #, precisions 0 to 17.
#include <stdio.h>
int main(void) {
    double v[] = {0.0, -0.0, 1.0, 100000.0, 1000000.0, 1e-4, 1e-5, 0.0001234, 123456.5, 1234567.0, 9.9999995, 0.1,
                  1.0 / 3.0, 2.5, 1e15, 123.456, 1e-300, 33.0};
    const char *fmts[] = {"%g", "%.0g", "%.1g", "%.2g", "%.3g", "%.10g", "%.17g", "%#g", "%#.3g", "%12g", "%-12g|", "%+g", "%012g", "%G", "%.3G"};
    for (unsigned i = 0; i < sizeof v / sizeof v[0]; i++) {
        for (unsigned j = 0; j < sizeof fmts / sizeof fmts[0]; j++) {
            printf(fmts[j], v[i]);
            putchar(' ');
        }
        putchar('\n');
    }
    return 0;
}
