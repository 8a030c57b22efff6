// Recursion: deep but bounded recursion (10000 frames) summing a linked chain built on the stack.
#include <stdio.h>

struct link { int value; const struct link *next; };

static long sum_chain(const struct link *l) { return l ? l->value + sum_chain(l->next) : 0; }

static long build_and_sum(int n, const struct link *next) {
    if (n == 0)
        return sum_chain(next);
    struct link here = {n, next};
    return build_and_sum(n - 1, &here);
}

static int depth_of(int n) { return n == 0 ? 0 : 1 + depth_of(n - 1); }

int main(void) {
    printf("depth=%d\n", depth_of(10000));
    long s = build_and_sum(5000, NULL);
    printf("sum of 1..5000 via 5000-frame chain = %ld\n", s);
    return (int)(s % 256);
}
