/* An early return added inside a callee (if (change(0, C)) return ...): the divergence is in
 * the callee, and the caller's later decisions follow the new version's return value.
 * x in [-3, 3], y in [0, 2]. */
#include "penumbra.h"

static int parse(int x, int y) {
  if (change(0, x == y))
    return -1;
  if (x < 0)
    return 0;
  return x + y;
}

int main(void) {
  int x, y;
  penumbra_make_symbolic(&x, sizeof x, "x");
  penumbra_make_symbolic(&y, sizeof y, "y");
  penumbra_assume(x >= -3 && x <= 3);
  penumbra_assume(y >= 0 && y <= 2);
  int r = parse(x, y);
  if (r < 0)
    return 3;
  if (r > 2)
    return 2;
  return r;
}
