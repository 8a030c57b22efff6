// Floating point: printf %f and %F over a table of values with widths, precisions (also *) and the flags - + space # 0, as glibc prints them.
#include <stdio.h>
int main(void) {
    double v[] = {0.0, -0.0, 1.0, 0.5, 1.5, 2.5, -2.5, 0.125, 0.375, 3.14159265358979, 1e-7, 123456789.987654321,
                  1e22, 1e23, 2.0 / 3.0, 999.9999, 0.05, 0.15, 0.25, 1e300, 5e-324, 4503599627370497.5};
    const char *fmts[] = {"%f", "%.0f", "%.1f", "%.2f", "%.10f", "%.20f", "%#.0f", "%10.3f", "%-10.3f|",
                          "%+f", "% f", "%010.2f", "%+08.1f", "%-+9.2f|", "%F", "%.3F"};
    for (unsigned i = 0; i < sizeof v / sizeof v[0]; i++) {
        for (unsigned j = 0; j < sizeof fmts / sizeof fmts[0]; j++) {
            printf(fmts[j], v[i]);
            putchar(' ');
        }
        printf("%*.*f\n", 12, 4, v[i]);
    }
    return 0;
}
