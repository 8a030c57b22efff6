/* Rational.abs mutant (relational operator replacement x < 0 to x <= 0): for x = 0 the
 * versions take different sides although both return 0. A divergence is a different side,
 * so x = 0 is one diff path. x in [-8, 8]. */
#include "penumbra.h"

int abs_value(int x) {
  if (change(x < 0, x <= 0))
    return -x;
  return x;
}

int main(void) {
  int x;
  penumbra_make_symbolic(&x, sizeof x, "x");
  penumbra_assume(x >= -8 && x <= 8);
  return abs_value(x) > 4;
}
