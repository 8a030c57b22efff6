// Integers: sign and zero extension and truncation between char, short, int, long (incl. signed char to unsigned).
#include <stdio.h>
#include <stdint.h>

static long widen_s8(int8_t v) { return v; }
static unsigned long widen_u8(uint8_t v) { return v; }
static long widen_s16(int16_t v) { return v; }
static long widen_s32(int32_t v) { return v; }
static unsigned long widen_u32(uint32_t v) { return v; }

int main(void) {
    signed char sc = -5;
    unsigned char uc = (unsigned char)sc;
    unsigned int ui = (unsigned int)sc;
    unsigned long ul = (unsigned long)sc;
    printf("sc=%d uc=%u ui=%u ul=%lu\n", sc, uc, ui, ul);
    char raw = (char)0xf0;
    printf("plain char 0xf0 = %d, as unsigned char = %d\n", raw, (unsigned char)raw);
    short s = (short)0x8001;
    unsigned short us = (unsigned short)s;
    printf("short=%d ushort=%u int(ushort)=%d long(short)=%ld\n", s, us, (int)us, (long)s);
    int i = -1;
    printf("(unsigned char)-1=%u (short)-1=%d (unsigned short)-1=%u (unsigned)-1=%u\n", (unsigned char)i, (short)i,
           (unsigned short)i, (unsigned)i);
    long big = 0x123456789abcdefL;
    printf("truncations: int=%d short=%d char=%d uint=%u\n", (int)big, (short)big, (signed char)big, (unsigned)big);
    long negbig = -0x123456789L;
    printf("negative truncations: int=%d ushort=%u\n", (int)negbig, (unsigned short)negbig);
    printf("widen: s8=%ld u8=%lu s16=%ld s32=%ld u32=%lu\n", widen_s8(-128), widen_u8(0x80), widen_s16(-32768),
           widen_s32(-2147483647 - 1), widen_u32(0x80000000u));
    uint8_t bytes[4] = {0xff, 0x80, 0x7f, 0x01};
    int32_t assembled = (int32_t)((uint32_t)bytes[0] << 24 | (uint32_t)bytes[1] << 16 | (uint32_t)bytes[2] << 8 | bytes[3]);
    int8_t sbytes[2] = {-1, -128};
    int mixed = sbytes[0] * 256 + (uint8_t)sbytes[1];
    printf("assembled=%d mixed=%d\n", assembled, mixed);
    unsigned char c1 = 200, c2 = 100;
    int promoted = c1 + c2;
    unsigned char truncated = (unsigned char)(c1 + c2);
    printf("promoted=%d truncated=%u c2-c1=%d\n", promoted, truncated, c2 - c1);
    long from_uint = (long)(0u - 1u);
    long from_int = (long)(0 - 1);
    printf("long from uint=%ld from int=%ld\n", from_uint, from_int);
    return (unsigned char)sc;
}
