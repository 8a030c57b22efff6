/* Weakening `A && B` to `B` written as change(A && B, B) (pattern 3): the x > 0 guard is
 * dropped. x, y in [-4, 4]. */
#include "penumbra.h"

int both_positive(int x, int y) {
  int n = 0;
  if (change(x > 0 && y > 0, y > 0))
    n = x + y;
  if (n > 4)
    return 2;
  return n > 0;
}

int main(void) {
  int x, y;
  penumbra_make_symbolic(&x, sizeof x, "x");
  penumbra_make_symbolic(&y, sizeof y, "y");
  penumbra_assume(x >= -4 && x <= 4);
  penumbra_assume(y >= -4 && y <= 4);
  return both_positive(x, y);
}
