/* Removed conditional code if (change(C, 0)) {...} (pattern 4): the old version rejected
 * x < -5 early; the new one lets it through to a division by x + 7, which fails for x = -7.
 * x in [-8, 8]. */
#include "penumbra.h"

int ratio(int x) {
  if (change(x < -5, 0))
    return -1;
  int r = 70 / (x + 7);
  if (r > 20)
    return 3;
  return r > 0;
}

int main(void) {
  int x;
  penumbra_make_symbolic(&x, sizeof x, "x");
  penumbra_assume(x >= -8 && x <= 8);
  return ratio(x) + 1;
}
