/* An assertion that failed in the old version only (the fix): after the old version's
 * failure the new version goes on through two more branches, each ending a diff path.
 * x in [-6, 6]. */
#include "penumbra.h"

int normalise(int x) {
  int y = change(x, x < 0 ? -x : x);
  penumbra_assert(y >= 0);
  if (y > 3)
    return 2;
  if (y == 0)
    return 0;
  return 1;
}

int main(void) {
  int x;
  penumbra_make_symbolic(&x, sizeof x, "x");
  penumbra_assume(x >= -6 && x <= 6);
  return normalise(x);
}
