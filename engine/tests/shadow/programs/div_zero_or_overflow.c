/* Two ways for the old version to fail one division that the new version always passes: the
 * old divisor d is 0 (division by zero), or -1 with the dividend INT_MIN (signed overflow, at
 * x = 0); the new version divides by 2. The engine checks the two conditions as two forks, so
 * they are two diff paths even where the new version then does the same.
 * x in [-2, 2], d in [-1, 1]. */
#include "penumbra.h"

int main(void) {
  int x, d;
  penumbra_make_symbolic(&x, sizeof x, "x");
  penumbra_make_symbolic(&d, sizeof d, "d");
  penumbra_assume(x >= -2 && x <= 2);
  penumbra_assume(d >= -1 && d <= 1);
  int num = x == 0 ? -2147483647 - 1 : 10 * x;
  int q = num / change(d, 2);
  if (q > 0)
    return 1;
  return 0;
}
