// Floating point: strtold to x87 extended precision (64-bit significand) on decimal and hex inputs, printed as bits and with %.21Lg.
// libc: musl
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int main(void) {
    const char *in[] = {"0.1", "1e-4950", "1.18973149535723176502e+4932", "1e5000", "0x1.fffffffffffffffep16383",
                        "3.36210314311209350626e-4932", "18446744073709551615", "18446744073709551617", "-2.5", "1e-10",
                        "123456789.123456789123456789"};
    for (unsigned i = 0; i < sizeof in / sizeof in[0]; i++) {
        char *end;
        long double x = strtold(in[i], &end);
        unsigned char b[10];
        memcpy(b, &x, 10);
        for (int k = 9; k >= 0; k--) printf("%02x", b[k]);
        printf(" %.21Lg %ld\n", x, (long)(end - in[i]));
    }
    return 0;
}
