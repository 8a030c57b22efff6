/* gcd100_m2.c: gcd_m2.c with its inputs widened to [-100, 100] (40,401 input pairs; Bitwuzla bit-blasts the chains of subtractions, the range solver enumerates): Euclid's algorithm reducing a fraction (a loop over remainders).
 * Changes in this unified file:
 *   C2: the loop runs while a > b instead of a != b: stops early when a < b
 * Generated from one template per program; other mutants carry other changes. */
#include "penumbra.h"

/* Euclid's algorithm by subtraction, at most 32 rounds (12 and 1 need 11). */
static int gcd(int a, int b) {
  int rounds = 0;
  while (change(a != b, a > b) && rounds < 32) {
    if (a > b)
      a -= b;
    else
      b -= a;
    rounds++;
  }
  return a;
}

int main(void) {
  int num, den;
  penumbra_make_symbolic(&num, sizeof num, "num");
  penumbra_make_symbolic(&den, sizeof den, "den");
  penumbra_assume(num >= -100 && num <= 100);
  penumbra_assume(den >= -100 && den <= 100);
  int g = gcd(num, den);
  /* a common divisor is at most either number */
  penumbra_assert(g >= 1 && g <= num && g <= den);
  if (g == den)
    return 1; /* den divides num: the fraction is a whole number */
  return num < den ? 2 : 3;
}
