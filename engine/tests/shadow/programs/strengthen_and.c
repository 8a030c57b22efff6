/* Strengthening `A` to `A && B` (pattern 2): only even positive values are accepted now.
 * x in [-8, 8]. */
#include "penumbra.h"

int accept(int x) {
  int r = 0;
  if (x > 0 && change(1, x % 2 == 0)) {
    r = x / 2;
    if (r > 2)
      r = 2;
  }
  return r;
}

int main(void) {
  int x;
  penumbra_make_symbolic(&x, sizeof x, "x");
  penumbra_assume(x >= -8 && x <= 8);
  return accept(x);
}
