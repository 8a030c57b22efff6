// Integers: 64-bit arithmetic (factorials, FNV-1a 64, modular exponentiation, 128-bit-free mulmod, splitmix).
#include <stdio.h>
#include <stdint.h>

static uint64_t mulmod(uint64_t a, uint64_t b, uint64_t m) {
    uint64_t r = 0;
    a %= m;
    while (b) {
        if (b & 1)
            r = (r + a) % m;
        a = (a * 2) % m;
        b >>= 1;
    }
    return r;
}

static uint64_t powmod(uint64_t base, uint64_t exp, uint64_t m) {
    uint64_t r = 1 % m;
    base %= m;
    while (exp) {
        if (exp & 1)
            r = mulmod(r, base, m);
        base = mulmod(base, base, m);
        exp >>= 1;
    }
    return r;
}

static uint64_t splitmix(uint64_t *state) {
    uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

int main(void) {
    int64_t f = 1;
    for (int i = 1; i <= 20; i++)
        f *= i;
    printf("20! = %lld\n", (long long)f);
    uint64_t f25 = 1;
    for (int i = 1; i <= 25; i++)
        f25 *= (uint64_t)i;
    printf("25! mod 2^64 = %llu\n", (unsigned long long)f25);
    uint64_t h = 0xcbf29ce484222325ull;
    for (const char *s = "penumbra"; *s; s++) {
        h ^= (uint8_t)*s;
        h *= 0x100000001b3ull;
    }
    printf("fnv1a64(penumbra) = %016llx\n", (unsigned long long)h);
    printf("2^62 mod 1e9+7 = %llu\n", (unsigned long long)powmod(2, 62, 1000000007));
    printf("3^(p-1) mod p (p = 2^61-1) = %llu\n", (unsigned long long)powmod(3, (1ull << 61) - 2, (1ull << 61) - 1));
    uint64_t st = 42;
    for (int i = 0; i < 3; i++)
        printf("splitmix %d = %016llx\n", i, (unsigned long long)splitmix(&st));
    int64_t a = 3037000499LL;
    printf("a*a = %lld, (a+1)*(a+1) wraps = %lld\n", (long long)(a * a), (long long)((a + 1) * (a + 1)));
    int64_t neg = -4000000000LL;
    printf("neg*3 = %lld, neg/7 = %lld, neg%%7 = %lld, neg>>3 = %lld\n", (long long)(neg * 3), (long long)(neg / 7),
           (long long)(neg % 7), (long long)(neg >> 3));
    uint32_t lo = 0xffffffffu;
    uint64_t widened = (uint64_t)lo * lo;
    uint32_t narrow = lo * lo;
    printf("u32*u32 widened = %llu, narrow = %u\n", (unsigned long long)widened, narrow);
    return (int)(f % 251);
}
