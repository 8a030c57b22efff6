/* Errors in both versions are not divergences: 100 / x fails for x = 0 in both, and the
 * unchanged assertion fails for x = 5 in both. Only the changed threshold diverges (x = 3).
 * x in [-6, 6]. */
#include "penumbra.h"

int check(int x) {
  int q = 100 / x;
  penumbra_assert(x != 5);
  if (change(x > 3, x > 2))
    return q;
  return 0;
}

int main(void) {
  int x;
  penumbra_make_symbolic(&x, sizeof x, "x");
  penumbra_assume(x >= -6 && x <= 6);
  return check(x) > 10;
}
