// Floating point: single-precision arithmetic (rounded to float at every step, no double rounding), FLT_EPSILON, float subnormals and float-to-double promotion.
#include <stdio.h>
#include <float.h>
#include <string.h>
static unsigned fbits(float f) { unsigned u; memcpy(&u, &f, 4); return u; }
int main(void) {
    float a = 16777216.0f, b = 1.0f;
    float c = a + b;          /* 2^24 + 1 rounds to 2^24 */
    float third = 1.0f / 3.0f;
    float sum = 0;
    for (int i = 0; i < 100; i++) sum += 0.01f;
    printf("%08x %08x %08x %.9g\n", fbits(c), fbits(third), fbits(sum), sum);
    float eps = 1.0f;
    while (1.0f + eps / 2 != 1.0f) eps /= 2;
    printf("%g %d\n", eps, eps == FLT_EPSILON);
    float tiny = FLT_MIN;
    int steps = 0;
    while (tiny > 0) { tiny /= 2; steps++; }
    printf("%d %a %a\n", steps, FLT_MIN / 8, (double)FLT_TRUE_MIN);
    float x = 0.1f; double dx = x;
    printf("%.20f %.20f %d\n", dx, 0.1, dx == 0.1);
    float big = 3.4e38f;
    printf("%g %g\n", big * 10, -big * 10);
    return steps;
}
