// Floating point: mixed integer and floating-point expressions as utilities write them: averages, percentages rounded for display, unsigned to double, integer promotions in comparisons.
#include <stdio.h>
int main(void) {
    unsigned long long used = 123456789ULL, total = 987654321ULL;
    double pct = 100.0 * used / total;
    printf("%.1f%% %d%% %.3g\n", pct, (int)(pct + 0.5), pct);
    int scores[] = {90, 85, 77, 100, 64};
    int sum = 0;
    for (int i = 0; i < 5; i++) sum += scores[i];
    double avg = (double)sum / 5;
    printf("%.2f %d %d\n", avg, sum / 5, avg > sum / 5);
    long long big = 1LL << 62;
    printf("%d %d\n", (double)big == (double)(big + 1), (float)16777217 == 16777216.0f);
    unsigned u = 4000000000u;
    printf("%.1f %g\n", (double)u / 3, u * 0.5f);
    short s = -5;
    printf("%g %g %d\n", s / 2.0, s / 2 * 1.0, (int)(s * 0.7));
    char c = 100;
    float f = c / 3;
    double ratio = c / 3.0;
    printf("%g %.10f\n", f, ratio);
    return (int)avg;
}
