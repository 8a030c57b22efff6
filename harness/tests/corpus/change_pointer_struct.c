// penumbra.h: change() choosing between pointers (two global tables) and between struct field values.
// run: --version old
// run: --version new
#include <stdio.h>
#include "penumbra.h"

static const int table_v1[] = {1, 1, 2, 3, 5, 8};
static const int table_v2[] = {2, 3, 5, 7, 11, 13};

struct limits { int lo, hi; };

int main(void) {
    const int *table = change(table_v1, table_v2);
    int sum = 0;
    for (int i = 0; i < 6; i++)
        sum += table[i];
    printf("table[5]=%d sum=%d\n", table[5], sum);
    struct limits lim = {change(0, -10), change(100, 50)};
    int inside = 0;
    for (int v = -20; v <= 120; v += 10)
        inside += v >= lim.lo && v <= lim.hi;
    printf("limits [%d, %d] inside=%d\n", lim.lo, lim.hi, inside);
    char sep = change(',', ';');
    printf("a%cb%cc\n", sep, sep);
    long long big = change(1LL << 40, -(1LL << 40));
    printf("big=%lld\n", big);
    return sum + inside;
}
