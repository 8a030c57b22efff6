// Operators: short-circuit evaluation with side effects, comma, ternary chains, compound assignment, abs().
#include <stdio.h>
#include <stdlib.h>

static int trace_count;
static int t(int v) {
    trace_count++;
    printf("t(%d) ", v);
    return v;
}

int main(void) {
    int r = t(0) && t(1);
    printf("-> %d\n", r);
    r = t(2) || t(3);
    printf("-> %d\n", r);
    r = (t(0) || t(4)) && (t(5) || t(6));
    printf("-> %d\n", r);
    r = !t(7) ? t(8) : t(9);
    printf("-> %d\n", r);
    int c = (t(10), t(11), 12);
    printf("comma -> %d, calls=%d\n", c, trace_count);
    int x = 10;
    x += 5; x -= 3; x *= 4; x /= 5; x %= 7; x <<= 3; x >>= 1; x |= 0x100; x &= 0x1f3; x ^= 0x55;
    printf("compound x=%d\n", x);
    int i = 5;
    int a = i++ + 10;
    int b = --i * 2;
    printf("a=%d b=%d i=%d\n", a, b, i);
    int grades[] = {95, 85, 72, 64, 40};
    for (int k = 0; k < 5; k++) {
        int g = grades[k];
        char letter = g >= 90 ? 'A' : g >= 80 ? 'B' : g >= 70 ? 'C' : g >= 60 ? 'D' : 'F';
        printf("%d:%c ", g, letter);
    }
    printf("\nabs: %d %d %d %d\n", abs(-5), abs(5), abs(0), abs(-2147483647));
    int arr[4] = {1, 2, 3, 4};
    int *p = arr;
    *p++ += 10;
    *++p *= 3;
    printf("arr=%d %d %d %d, p-arr=%d\n", arr[0], arr[1], arr[2], arr[3], (int)(p - arr));
    int neg = -x;
    printf("!0=%d !5=%d ~0=%d ~5=%d -x=%d\n", !0, !5, ~0, ~5, neg);
    return trace_count;
}
