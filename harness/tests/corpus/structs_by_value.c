// Structs: passing and returning small (8/16 byte) and large structs by value; copies are independent.
#include <stdio.h>
#include <string.h>

struct pair { int a, b; };
struct triple { long x, y, z; };
struct big { int data[32]; char tag[16]; long sum; };
struct mixed { char c; short s; int i; long l; };

static struct pair swap(struct pair p) {
    struct pair r = {p.b, p.a};
    return r;
}

static struct triple scale(struct triple t, long k) {
    t.x *= k;
    t.y *= k;
    t.z *= k;
    return t;
}

static struct big fill(int seed) {
    struct big b;
    memset(&b, 0, sizeof b);
    b.sum = 0;
    for (int i = 0; i < 32; i++) {
        b.data[i] = seed * i - 50;
        b.sum += b.data[i];
    }
    strcpy(b.tag, "filled");
    return b;
}

static long total_of(struct big b) {
    b.data[0] = 999999; /* modifies the callee's copy only */
    long s = 0;
    for (int i = 1; i < 32; i++)
        s += b.data[i];
    return s;
}

static struct mixed bump(struct mixed m) {
    m.c++;
    m.s--;
    m.i *= 2;
    m.l -= 1000000000000L;
    return m;
}

int main(void) {
    struct pair p = {3, 4};
    struct pair q = swap(p);
    printf("pair %d %d -> %d %d\n", p.a, p.b, q.a, q.b);
    struct triple t = scale((struct triple){1, -2, 3}, 1000000007L);
    printf("triple %ld %ld %ld\n", t.x, t.y, t.z);
    struct big b = fill(7);
    long before = b.data[0];
    long rest = total_of(b);
    printf("big tag=%s sum=%ld rest=%ld data0 %ld->%d\n", b.tag, b.sum, rest, before, b.data[0]);
    struct big c = b;
    c.data[5] = -1;
    printf("copy data5=%d original data5=%d\n", c.data[5], b.data[5]);
    struct mixed m = {'a', 10, 21, 5};
    struct mixed n = bump(bump(m));
    printf("mixed %c %d %d %ld\n", n.c, n.s, n.i, n.l);
    printf("sizes pair=%zu triple=%zu big=%zu mixed=%zu\n", sizeof p, sizeof t, sizeof b, sizeof m);
    return (int)(b.sum & 0xff);
}
