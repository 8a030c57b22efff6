// Floating point: strtod, strtof and atof on tricky inputs (halfway cases, the largest subnormal, hex floats, inf and nan spellings, overflow and underflow with ERANGE, partial parses): bits, end offsets and errno.
// libc: musl
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
int main(void) {
    const char *in[] = {"9007199254740993", "9007199254740995", "2.2250738585072011e-308", "2.2250738585072012e-308",
                        "4.9406564584124654e-324", "2.4703282292062327e-324", "2.4703282292062328e-324", "1e400", "-1e400",
                        "1e-400", "0x1p-1074", "0x1.fffffffffffffp1023", "0X.8P1", "  -0", "+.5e+2x", "inf", "-Infinity",
                        "nan", "NAN(123)", "1e", "1e+", ".", "-", "0x", "1.7976931348623158e308", "0.1", "123456789012345678901234567890",
                        "1.00000000000000011102230246251565404236316680908203125", "1.00000000000000011102230246251565404236316680908203124"};
    int n = sizeof in / sizeof in[0];
    for (int i = 0; i < n; i++) {
        char *end;
        errno = 0;
        double d = strtod(in[i], &end);
        int e1 = errno;
        errno = 0;
        float f = strtof(in[i], 0);
        int e2 = errno;
        unsigned long long b; memcpy(&b, &d, 8);
        unsigned fb; memcpy(&fb, &f, 4);
        printf("%-45s %016llx %08x end=%ld errno=%d,%d %.17g\n", in[i], d != d ? 0x7ff8000000000000ULL : b, f != f ? 0x7fc00000u : fb,
               (long)(end - in[i]), e1 == ERANGE, e2 == ERANGE, d);
    }
    printf("%g\n", atof("  12.5e-1abc"));
    return 0;
}
