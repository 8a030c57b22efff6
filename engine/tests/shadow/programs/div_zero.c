/* Division by zero in one version only: the divisor shifts by one, so x = 0 fails in the old
 * version (the new one goes on) and x = 1 fails in the new version. x in [-4, 4]. */
#include "penumbra.h"

int per_item(int total, int x) {
  int r = total / change(x, x - 1);
  if (r > 10)
    return 2;
  return r > 0;
}

int main(void) {
  int x;
  penumbra_make_symbolic(&x, sizeof x, "x");
  penumbra_assume(x >= -4 && x <= 4);
  return per_item(24, x);
}
