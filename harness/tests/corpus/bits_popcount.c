// Bit manipulation: popcount, parity, bit reversal, leading/trailing zeros, rotations, masks and fields.
#include <stdio.h>
#include <stdint.h>

static int popcount(uint32_t x) {
    int n = 0;
    while (x) {
        x &= x - 1;
        n++;
    }
    return n;
}

static int popcount_swar(uint64_t x) {
    x = x - ((x >> 1) & 0x5555555555555555ull);
    x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
    x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0full;
    return (int)((x * 0x0101010101010101ull) >> 56);
}

static uint32_t reverse_bits(uint32_t x) {
    x = ((x >> 1) & 0x55555555u) | ((x & 0x55555555u) << 1);
    x = ((x >> 2) & 0x33333333u) | ((x & 0x33333333u) << 2);
    x = ((x >> 4) & 0x0f0f0f0fu) | ((x & 0x0f0f0f0fu) << 4);
    x = ((x >> 8) & 0x00ff00ffu) | ((x & 0x00ff00ffu) << 8);
    return (x >> 16) | (x << 16);
}

static int clz32(uint32_t x) {
    if (!x)
        return 32;
    int n = 0;
    while (!(x & 0x80000000u)) {
        x <<= 1;
        n++;
    }
    return n;
}

static int ctz64(uint64_t x) {
    if (!x)
        return 64;
    int n = 0;
    while (!(x & 1)) {
        x >>= 1;
        n++;
    }
    return n;
}

static uint32_t rotl(uint32_t x, unsigned r) { return r ? (x << r) | (x >> (32 - r)) : x; }
static uint8_t rotr8(uint8_t x, unsigned r) { return (uint8_t)((x >> r) | (x << (8 - r))); }

int main(void) {
    uint32_t vals[] = {0, 1, 0xff, 0x80000000u, 0xdeadbeefu, 0xffffffffu, 12345};
    for (int i = 0; i < 7; i++) {
        uint32_t v = vals[i];
        printf("%08x pop=%2d swar=%2d parity=%d rev=%08x clz=%2d ctz=%2d rotl7=%08x\n", v, popcount(v),
               popcount_swar(v), popcount(v) & 1, reverse_bits(v), clz32(v), ctz64(v), rotl(v, 7));
    }
    printf("pop64(all ones)=%d ctz64(1<<40)=%d\n", popcount_swar(~0ull), ctz64(1ull << 40));
    printf("rotr8(0x81,1)=%02x rotr8(0x0f,4)=%02x\n", rotr8(0x81, 1), rotr8(0x0f, 4));
    uint32_t flags = 0;
    flags |= 1u << 3;
    flags |= 1u << 17;
    flags ^= 0xf0;
    flags &= ~(1u << 5);
    printf("flags=%08x bit17=%u lowbyte=%02x\n", flags, (flags >> 17) & 1, flags & 0xff);
    uint32_t packed = (0x5u << 28) | (0x1abu << 16) | 0xbeefu;
    printf("fields: %x %x %x\n", packed >> 28, (packed >> 16) & 0xfff, packed & 0xffff);
    uint32_t x = 0x12345678;
    uint32_t lowest = x & -x;
    int is_pow2 = (64 & 63) == 0;
    printf("lowest set bit of %x = %x, 64 is pow2: %d, swapped=%08x\n", x, lowest, is_pow2,
           ((x & 0xff) << 24) | ((x & 0xff00) << 8) | ((x >> 8) & 0xff00) | (x >> 24));
    return popcount(0xdeadbeefu);
}
