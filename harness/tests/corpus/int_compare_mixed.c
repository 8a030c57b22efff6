// Integers: comparisons of signed vs unsigned operands, usual arithmetic conversions and promotions.
#include <stdio.h>

int main(void) {
    int neg = -1;
    unsigned one = 1;
    printf("-1 < 1u: %d\n", neg < one);
    printf("-1 < 1: %d\n", neg < (int)one);
    printf("-1 == 0xffffffffu: %d\n", neg == 0xffffffffu);
    long lneg = -1;
    printf("-1L < 1u: %d (long holds all unsigned values)\n", lneg < one);
    unsigned long ulone = 1;
    printf("-1L < 1UL: %d\n", lneg < ulone);
    unsigned char uc = 255;
    signed char sc = -1;
    printf("uc == sc: %d, uc > sc: %d\n", uc == sc, uc > sc);
    unsigned short us = 65535;
    short ss = -1;
    printf("us == ss: %d, (unsigned short)ss == us: %d\n", us == ss, (unsigned short)ss == us);
    printf("-1 > 0u ? %s\n", -1 > 0u ? "yes" : "no");
    printf("sizeof(-1 + 0u) = %zu, value = %u\n", sizeof(-1 + 0u), -1 + 0u);
    int vals[] = {-3, 0, 2, -2147483647 - 1, 2147483647};
    unsigned int limit = 2;
    int below = 0, below_signed = 0;
    for (int i = 0; i < 5; i++) {
        below += (unsigned)vals[i] < limit;
        below_signed += vals[i] < (int)limit;
    }
    printf("below as unsigned=%d, as signed=%d\n", below, below_signed);
    long long big = -5;
    unsigned long long ubig = 5;
    printf("-5LL < 5ULL: %d\n", big < ubig);
    printf("(char)200 < 0: %d, (unsigned char)200 < 0: %d\n", (signed char)200 < 0, (unsigned char)200 < 0);
    int result = (neg < one) * 4 + (lneg < one) * 2 + (uc > sc);
    printf("result=%d\n", result);
    return result;
}
