/* Removed assignment y = change(E, y) (pattern 4): the old version added a bias of 2 to y.
 * x, y in [-3, 3]. */
#include "penumbra.h"

int compare(int x, int y) {
  y = change(y + 2, y);
  if (x > y)
    return 1;
  if (x == y)
    return 0;
  return 2;
}

int main(void) {
  int x, y;
  penumbra_make_symbolic(&x, sizeof x, "x");
  penumbra_make_symbolic(&y, sizeof y, "y");
  penumbra_assume(x >= -3 && x <= 3);
  penumbra_assume(y >= -3 && y <= 3);
  return compare(x, y);
}
