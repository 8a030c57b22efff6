// Floating point: printf of long double (%Lf %Le %Lg with precisions up to 25) computed with x87 extended precision: 1/3, LDBL_MAX, LDBL_MIN, denormals.
#include <stdio.h>
#include <float.h>
int main(void) {
    long double v[] = {0.0L, -0.0L, 1.0L / 3.0L, 2.0L / 3.0L, 0.1L, LDBL_MAX, LDBL_MIN, LDBL_MIN / 1024, LDBL_EPSILON,
                       1e4000L, -1e-4000L, 12345678901234567890.0L, 0.5L};
    const char *fmts[] = {"%Lf", "%.25Lf", "%Le", "%.25Le", "%Lg", "%.21Lg", "%#.3Lg", "%+20.10Le", "%-12.3Lf|", "%LE", "%LG"};
    for (unsigned i = 0; i < sizeof v / sizeof v[0]; i++) {
        for (unsigned j = 0; j < sizeof fmts / sizeof fmts[0]; j++) {
            if (j < 2 && (i == 5 || i == 9)) continue; /* thousands of digits */
            printf(fmts[j], v[i]);
            putchar(' ');
        }
        putchar('\n');
    }
    return 0;
}
