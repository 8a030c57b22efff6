// Floating point: printf %a and %A (hexadecimal) for doubles and floats: normal, subnormal, zero, rounded precisions and flags.
#include <stdio.h>
int main(void) {
    double v[] = {0.0, -0.0, 1.0, 1.5, -2.75, 0.1, 1e-310, 4.9406564584124654e-324, 1.7976931348623157e308, 3.0, 255.0, 1.0 / 3.0};
    const char *fmts[] = {"%a", "%A", "%.0a", "%.1a", "%.3a", "%.20a", "%#a", "%20a", "%-20a|", "%+a", "%020a"};
    for (unsigned i = 0; i < sizeof v / sizeof v[0]; i++) {
        for (unsigned j = 0; j < sizeof fmts / sizeof fmts[0]; j++) {
            printf(fmts[j], v[i]);
            putchar(' ');
        }
        putchar('\n');
    }
    float f = 0.1f;
    printf("%a %a\n", f, (double)f * 3);
    return 0;
}
