/* Added assignment x = change(x, E) (pattern 4): the new version normalises negative
 * inputs to zero before two range checks. x in [-6, 6]. */
#include "penumbra.h"

int level(int x) {
  if (x < 0)
    x = change(x, 0);
  if (x == 0)
    return 0;
  if (x < -3)
    return -2;
  return x > 3 ? 2 : 1;
}

int main(void) {
  int x;
  penumbra_make_symbolic(&x, sizeof x, "x");
  penumbra_assume(x >= -6 && x <= 6);
  return level(x) + 2;
}
