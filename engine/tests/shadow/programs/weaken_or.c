/* Weakening `A` to `A || B` (pattern 2): a validity check now also rejects large values.
 * x in [-8, 8]. */
#include "penumbra.h"

int validate(int x) {
  if (x < -4 || change(0, x > 6))
    return -1;
  if (x == 0)
    return 0;
  return x > 0 ? 1 : 2;
}

int main(void) {
  int x;
  penumbra_make_symbolic(&x, sizeof x, "x");
  penumbra_assume(x >= -8 && x <= 8);
  return validate(x) + 1;
}
