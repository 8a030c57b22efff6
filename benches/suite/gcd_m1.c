/* gcd_m1.c: a mutant of gcd: Euclid's algorithm reducing a fraction (a loop over remainders).
 * Changes in this unified file:
 *   C1: a > b becomes a >= b inside the loop, where a != b (an equivalent mutant, no divergence)
 * Generated from one template per program; other mutants carry other changes. */
#include "penumbra.h"

/* Euclid's algorithm by subtraction, at most 32 rounds (12 and 1 need 11). */
static int gcd(int a, int b) {
  int rounds = 0;
  while (a != b && rounds < 32) {
    if (change(a > b, a >= b))
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
  penumbra_assume(num >= 1 && num <= 12);
  penumbra_assume(den >= 1 && den <= 12);
  int g = gcd(num, den);
  /* a common divisor is at most either number */
  penumbra_assert(g >= 1 && g <= num && g <= den);
  if (g == den)
    return 1; /* den divides num: the fraction is a whole number */
  return num < den ? 2 : 3;
}
