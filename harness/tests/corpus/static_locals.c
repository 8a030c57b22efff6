// Static locals: counters that persist across calls, memo tables, per-function state and a generator.
#include <stdio.h>

static int next_id(void) {
    static int id = 100;
    return id++;
}

static int calls_a(void) { static int n; return ++n; }
static int calls_b(void) { static int n; return ++n; }

static int memo_filled;
static int tribonacci_filled(void) { return memo_filled; }

static unsigned long long tribonacci(int n) {
    static unsigned long long memo[64];
    if (n < 3)
        return n == 2 ? 1 : 0;
    if (memo[n])
        return memo[n];
    memo_filled++;
    return memo[n] = tribonacci(n - 1) + tribonacci(n - 2) + tribonacci(n - 3);
}

static int *counter_cell(void) {
    static int cell = 5;
    return &cell;
}

/* A generator of a pseudo-random sequence (LCG) keeping its state in a static. */
static unsigned rnd(void) {
    static unsigned state = 12345;
    state = state * 1103515245u + 12345u;
    return (state >> 16) & 0x7fff;
}

int main(void) {
    for (int i = 0; i < 3; i++)
        printf("id %d\n", next_id());
    calls_a();
    calls_a();
    calls_b();
    printf("a=%d b=%d\n", calls_a(), calls_b());
    printf("trib(40)=%llu\n", tribonacci(40));
    printf("trib(60)=%llu\n", tribonacci(60));
    printf("memo entries filled: %d\n", tribonacci_filled());
    *counter_cell() += 10;
    (*counter_cell())++;
    printf("cell=%d\n", *counter_cell());
    unsigned hist[4] = {0};
    for (int i = 0; i < 1000; i++)
        hist[rnd() % 4]++;
    printf("rnd hist %u %u %u %u, next %u\n", hist[0], hist[1], hist[2], hist[3], rnd());
    return next_id() - 100;
}
