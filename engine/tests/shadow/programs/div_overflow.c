/* Signed division overflow: the divisor shifts by one, so d = 0 is a division by zero in the
 * old version, and with the dividend INT_MIN (x = 0) the new version divides by -1 at the
 * same instruction (the engine checks the divisor first). x in [-2, 2], d in [-1, 1]. */
#include "penumbra.h"

int main(void) {
  int x, d;
  penumbra_make_symbolic(&x, sizeof x, "x");
  penumbra_make_symbolic(&d, sizeof d, "d");
  penumbra_assume(x >= -2 && x <= 2);
  penumbra_assume(d >= -1 && d <= 1);
  int num = x == 0 ? -2147483647 - 1 : 10 * x;
  int q = num / change(d, d - 1);
  if (q > 0)
    return 1;
  return 0;
}
