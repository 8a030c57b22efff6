// Unions: type punning between integers and bytes (little-endian), tagged unions.
#include <stdio.h>
#include <stdint.h>

union word {
    uint32_t u;
    int32_t i;
    uint16_t halves[2];
    uint8_t bytes[4];
};

union wide {
    uint64_t u;
    int64_t i;
    uint32_t words[2];
    int8_t sbytes[8];
};

enum kind { K_INT, K_CHAR, K_PAIR };
struct value {
    enum kind kind;
    union { long i; char c; struct { short a, b; } pair; } as;
};

static long weight(struct value v) {
    switch (v.kind) {
    case K_INT: return v.as.i;
    case K_CHAR: return v.as.c * 2;
    case K_PAIR: return v.as.pair.a * 100 + v.as.pair.b;
    }
    return -1;
}

int main(void) {
    union word w;
    w.u = 0xdeadbeef;
    printf("u=%u i=%d halves=%04x,%04x bytes=%02x %02x %02x %02x\n", w.u, w.i, w.halves[0], w.halves[1],
           w.bytes[0], w.bytes[1], w.bytes[2], w.bytes[3]);
    w.bytes[3] = 0x7f;
    printf("after byte write: %08x %d\n", w.u, w.i);
    w.i = -2;
    printf("-2 as unsigned: %u halves %u %u\n", w.u, w.halves[0], w.halves[1]);

    union wide x;
    x.i = -1234567890123LL;
    printf("wide words=%08x %08x u=%llu\n", x.words[0], x.words[1], (unsigned long long)x.u);
    for (int k = 0; k < 8; k++)
        printf("%d ", x.sbytes[k]);
    printf("\n");
    x.words[1] = 0x80000000u;
    x.words[0] = 0;
    printf("sign bit only: %lld\n", (long long)x.i);

    struct value vals[3] = {{K_INT, {.i = -77}}, {K_CHAR, {.c = 'z'}}, {K_PAIR, {.pair = {3, -4}}}};
    long total = 0;
    for (int k = 0; k < 3; k++) {
        long wgt = weight(vals[k]);
        printf("value %d weight %ld\n", k, wgt);
        total += wgt;
    }
    printf("sizeof word=%zu wide=%zu value=%zu\n", sizeof w, sizeof x, sizeof vals[0]);
    return (int)total;
}
