// Bit manipulation: shifts up to width - 1, arithmetic right shifts of negatives, 1u << 31, 1ull << 63.
#include <stdio.h>
#include <stdint.h>

int main(void) {
    int neg = -1000;
    for (int s = 0; s < 32; s += 5)
        printf("-1000 >> %2d = %d\n", s, neg >> s);
    printf("-1 >> 31 = %d, INT_MIN >> 31 = %d, INT_MIN >> 1 = %d\n", -1 >> 31, (-2147483647 - 1) >> 31,
           (-2147483647 - 1) >> 1);
    printf("1u << 31 = %u, 0xffffffffu >> 31 = %u\n", 1u << 31, 0xffffffffu >> 31);
    printf("1ull << 63 = %llu, 1ll << 62 = %lld\n", 1ull << 63, 1ll << 62);
    long long m = -1LL;
    printf("-1LL >> 63 = %lld, (-1LL << 63) = %lld\n", m >> 63, (long long)((unsigned long long)m << 63));
    int64_t big = -0x123456789abcLL;
    printf("big >> 4 = %lld, big >> 40 = %lld, (uint64)big >> 40 = %llu\n", (long long)(big >> 4),
           (long long)(big >> 40), (unsigned long long)((uint64_t)big >> 40));
    uint8_t b = 0x96;
    printf("u8 << 1 = %d (promoted), (uint8)(b << 1) = %d, b >> 7 = %d\n", b << 1, (uint8_t)(b << 1), b >> 7);
    int8_t sb = -128;
    printf("int8 -128 >> 3 = %d, (int8)((unsigned)sb << 1) = %d\n", sb >> 3, (int8_t)((unsigned)sb << 1));
    short sh = -2;
    printf("short -2 >> 1 = %d, (short)((unsigned)sh << 14) = %d, (short)((unsigned)sh << 15) = %d\n", sh >> 1,
           (short)((unsigned)sh << 14), (short)((unsigned)sh << 15));
    unsigned total = 0;
    for (unsigned s = 0; s < 32; s++)
        total += (0x80000000u >> s) == (1u << (31 - s));
    unsigned long long acc = 0;
    for (int s = 0; s < 64; s++)
        acc ^= 1ull << s;
    int var = 3;
    printf("shift identities hold %u/32, xor of all 64 bits = %llx, 5 << var = %d\n", total, acc, 5 << var);
    printf("INT_MAX << 1 = %d, 0x40000000 << 1 = %d\n", (int)(0x7fffffffu << 1), (int)(0x40000000u << 1));
    return (int)(total + (neg >> 31 & 7));
}
