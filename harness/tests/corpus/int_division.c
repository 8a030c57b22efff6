// Integers: truncating signed division and remainder with negatives, unsigned and 64-bit division, modulo helpers.
#include <stdio.h>

static int floor_div(int a, int b) {
    int q = a / b;
    if ((a % b != 0) && ((a < 0) != (b < 0)))
        q--;
    return q;
}
static int mod_pos(int a, int m) { return ((a % m) + m) % m; }

int main(void) {
    int pairs[][2] = {{7, 2}, {-7, 2}, {7, -2}, {-7, -2}, {0, 5}, {5, 7}, {-5, 7}, {2147483647, -1},
                      {-2147483647 - 1, 2}, {-2147483647 - 1, 2147483647}};
    for (int i = 0; i < 10; i++) {
        int a = pairs[i][0], b = pairs[i][1];
        printf("%d / %d = %d, %d %% %d = %d, floor=%d\n", a, b, a / b, a, b, a % b, floor_div(a, b));
    }
    printf("mod_pos(-7, 3)=%d mod_pos(7, 3)=%d mod_pos(-9, 3)=%d\n", mod_pos(-7, 3), mod_pos(7, 3), mod_pos(-9, 3));
    unsigned u = 0xfffffff9u; /* -7 as unsigned */
    printf("unsigned: %u / 2 = %u, %% 2 = %u\n", u, u / 2, u % 2);
    long long big = -9000000000000000007LL;
    printf("i64: %lld / 1000 = %lld, %% 1000 = %lld\n", big, big / 1000, big % 1000);
    printf("i64: %lld / -3 = %lld, %% -3 = %lld\n", big, big / -3, big % -3);
    unsigned long long ubig = 18000000000000000005ull;
    printf("u64: %llu / 7 = %llu, %% 7 = %llu\n", ubig, ubig / 7, ubig % 7);
    signed char sc = -128;
    printf("signed char -128 / -1 (promoted to int) = %d\n", sc / -1);
    short sh = -32768;
    printf("short / 3 = %d, %% 3 = %d\n", sh / 3, sh % 3);
    int digits = 0;
    for (int n = -123456; n != 0; n /= 10)
        digits++;
    printf("digits of -123456 = %d, last digit %d\n", digits, -123456 % 10);
    return (-7 / 2) + 100;
}
