// Integers: unsigned wrap-around (0u - 1, UINT_MAX + 1), unsigned char and short overflow, modular hashing.
#include <stdio.h>
#include <limits.h>
#include <stdint.h>

int main(void) {
    unsigned zero = 0;
    printf("0u - 1 = %u\n", zero - 1);
    printf("UINT_MAX + 1 = %u\n", UINT_MAX + 1u);
    printf("UINT_MAX * UINT_MAX = %u\n", UINT_MAX * UINT_MAX);
    unsigned long long z = 0;
    printf("0ull - 1 = %llu\n", z - 1);
    unsigned char uc = 250;
    for (int i = 0; i < 10; i++)
        uc++;
    printf("250 + 10 in unsigned char = %u\n", uc);
    unsigned char prod = (unsigned char)(200 * 3);
    printf("(unsigned char)(200 * 3) = %u\n", prod);
    unsigned char sum = 0;
    for (int i = 1; i <= 100; i++)
        sum += (unsigned char)i;
    printf("sum 1..100 in unsigned char = %u\n", sum);
    unsigned short us = 65535;
    us += 2;
    printf("65535 + 2 in unsigned short = %u\n", us);
    uint16_t a = 40000, b = 30000;
    printf("a + b as int = %d, stored in uint16 = %u\n", a + b, (uint16_t)(a + b));
    unsigned countdown = 3, steps = 0;
    while (countdown-- > 0)
        steps++;
    printf("post-decrement loop steps=%u, countdown after=%u\n", steps, countdown);
    uint32_t h = 0;
    const char *s = "wrap-around hashing";
    for (; *s; s++)
        h = h * 31 + (uint8_t)*s;
    printf("hash=%u\n", h);
    uint64_t x = 0xffffffffffffffffull;
    x += 2;
    printf("u64 max + 2 = %llu\n", (unsigned long long)x);
    unsigned diff = 3u - 5u;
    printf("3u - 5u = %u, as int = %d\n", diff, (int)diff);
    return uc;
}
