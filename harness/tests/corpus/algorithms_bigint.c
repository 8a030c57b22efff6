// Algorithms: arbitrary-precision arithmetic in base 10000 arrays (50!, 2^200, Fibonacci 300).
#include <stdio.h>
#include <string.h>

#define LIMBS 120
#define BASE 10000

struct big { int n; unsigned limb[LIMBS]; };

static void set_small(struct big *b, unsigned v) {
    memset(b, 0, sizeof *b);
    b->n = 0;
    do {
        b->limb[b->n++] = v % BASE;
        v /= BASE;
    } while (v);
}

static void mul_small(struct big *b, unsigned m) {
    unsigned carry = 0;
    for (int i = 0; i < b->n; i++) {
        unsigned cur = b->limb[i] * m + carry;
        b->limb[i] = cur % BASE;
        carry = cur / BASE;
    }
    while (carry) {
        b->limb[b->n++] = carry % BASE;
        carry /= BASE;
    }
}

static void add(struct big *out, const struct big *a, const struct big *b) {
    unsigned carry = 0;
    int n = a->n > b->n ? a->n : b->n;
    for (int i = 0; i < n; i++) {
        unsigned cur = (i < a->n ? a->limb[i] : 0) + (i < b->n ? b->limb[i] : 0) + carry;
        out->limb[i] = cur % BASE;
        carry = cur / BASE;
    }
    out->n = n;
    if (carry)
        out->limb[out->n++] = carry;
}

static int print_big(const char *label, const struct big *b) {
    printf("%s = %u", label, b->limb[b->n - 1]);
    for (int i = b->n - 2; i >= 0; i--)
        printf("%04u", b->limb[i]);
    printf("\n");
    int digit_sum = 0;
    for (int i = 0; i < b->n; i++)
        for (unsigned v = b->limb[i]; v; v /= 10)
            digit_sum += v % 10;
    return digit_sum;
}

int main(void) {
    struct big f;
    set_small(&f, 1);
    for (unsigned i = 2; i <= 50; i++)
        mul_small(&f, i);
    int s1 = print_big("50!", &f);
    struct big p;
    set_small(&p, 1);
    for (int i = 0; i < 200; i++)
        mul_small(&p, 2);
    int s2 = print_big("2^200", &p);
    struct big a, b, c;
    set_small(&a, 0);
    set_small(&b, 1);
    for (int i = 2; i <= 300; i++) {
        add(&c, &a, &b);
        a = b;
        b = c;
    }
    int s3 = print_big("fib(300)", &b);
    printf("digit sums: %d %d %d\n", s1, s2, s3);
    return s1 % 256;
}
