/* luhn_m2.c: a mutant of luhn: the Luhn checksum over four digits.
 * Changes in this unified file:
 *   C2: a doubled digit above 9 loses 10 instead of 9
 * Generated from one template per program; other mutants carry other changes. */
#include "penumbra.h"

/* The Luhn check digit test over four decimal digits (card-number style checksum). */
static int luhn_ok(const int *digit, int n) {
  int sum = 0;
  int twice = 0;
  for (int i = n - 1; i >= 0; i--) {
    int v = digit[i];
    if (twice) {
      v *= 2;
      if (v > 9)
        v -= change(9, 10);
    }
    sum += v;
    twice = !twice;
  }
  return sum % 10 == 0;
}

int main(void) {
  int d0, d1, d2, d3;
  penumbra_make_symbolic(&d0, sizeof d0, "d0");
  penumbra_make_symbolic(&d1, sizeof d1, "d1");
  penumbra_make_symbolic(&d2, sizeof d2, "d2");
  penumbra_make_symbolic(&d3, sizeof d3, "d3");
  penumbra_assume(d0 >= 0 && d0 <= 9);
  penumbra_assume(d1 >= 0 && d1 <= 9);
  penumbra_assume(d2 >= 0 && d2 <= 9);
  penumbra_assume(d3 >= 0 && d3 <= 9);
  int digits[4] = {d0, d1, d2, d3};
  if (luhn_ok(digits, 4))
    return 0; /* accepted */
  return 1;
}
