// printf: every modelled conversion with flags (- 0 + space #), widths, precisions (incl. *) and length modifiers.
#include <stdio.h>
#include <stddef.h>
#include <stdint.h>

int main(void) {
    int n = 42, neg = -42;
    printf("[%d] [%i] [%5d] [%-5d] [%05d] [%+d] [% d] [%+5d] [%-+5d]\n", n, n, n, n, n, n, n, n, n);
    printf("[%d] [%5d] [%-5d] [%05d] [%+d] [% d] [%.3d] [%8.4d] [%-8.4d|]\n", neg, neg, neg, neg, neg, neg, neg, neg, neg);
    printf("[%.0d] [%.0d] [%5.0d] [%.1d]\n", 0, 7, 0, 0);
    printf("[%u] [%u] [%10u] [%-10u|]\n", 0u, 4294967295u, 123u, 123u);
    printf("[%x] [%X] [%#x] [%#X] [%08x] [%#010x] [%#x] [%.6x]\n", 255, 255, 255, 255, 48879, 48879, 0, 0xabc);
    printf("[%o] [%#o] [%#o] [%5o] [%-#6o|]\n", 8, 8, 0, 511, 8);
    printf("[%c] [%3c] [%-3c|] [%c%c%c]\n", 'A', 'b', 'c', 'x', 'y', 'z');
    printf("[%s] [%10s] [%-10s|] [%.3s] [%10.2s] [%-6.4s|] [%s]\n", "shadow", "shadow", "shadow", "shadow",
           "shadow", "shadow", "");
    int w = 7, p = 3;
    printf("[%*d] [%-*d|] [%.*d] [%*.*d] [%.*s] [%*s]\n", w, n, w, n, p, 5, w, p, 9, 4, "truncated", -6, "left");
    printf("[%%] [100%%] [%%d]\n");
    signed char sc = -3;
    unsigned char uc = 250;
    short sh = -1234;
    unsigned short ush = 65000;
    printf("[%hhd] [%hhu] [%hhx] [%hd] [%hu] [%hx]\n", sc, uc, uc, sh, ush, ush);
    printf("[%hhd] [%hd] (truncated from int)\n", 300, 70000);
    long l = -9000000000L;
    unsigned long ul = 18000000000000000000UL;
    long long ll = -1234567890123456789LL;
    unsigned long long ull = 0xfedcba9876543210ULL;
    printf("[%ld] [%lu] [%lx] [%lld] [%llu] [%llX] [%#llo]\n", l, ul, ul, ll, ull, ull, ull);
    size_t z = sizeof(long double);
    ptrdiff_t t = -17;
    intmax_t j = -9223372036854775807LL - 1;
    uintmax_t uj = 18446744073709551615ULL;
    printf("[%zu] [%zx] [%td] [%jd] [%ju] [%zd]\n", z, (size_t)4096, t, j, uj, (ptrdiff_t)-5);
    printf("[%+.3d] [% 05d] [%-08d|] [%+08d] [%#5x] [%-#8X|]\n", 9, 9, 9, -9, 10, 10);
    int written = printf("%s=%d;", "count", 12345);
    printf(" printf returned %d\n", written);
    return written;
}
