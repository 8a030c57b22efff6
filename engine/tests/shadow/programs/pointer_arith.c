/* Changed pointer arithmetic p + change(1, 2) on an array: the new version reads the next
 * element. x, y in [-3, 3]. */
#include "penumbra.h"

int pick(int x, int y) {
  int v[4];
  v[0] = x;
  v[1] = y;
  v[2] = x + y;
  v[3] = x - y;
  int *p = v + change(1, 2);
  if (*p > 0)
    return 1;
  if (*p == 0)
    return 2;
  return 0;
}

int main(void) {
  int x, y;
  penumbra_make_symbolic(&x, sizeof x, "x");
  penumbra_make_symbolic(&y, sizeof y, "y");
  penumbra_assume(x >= -3 && x <= 3);
  penumbra_assume(y >= -3 && y <= 3);
  return pick(x, y);
}
