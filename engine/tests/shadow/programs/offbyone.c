/* Changed bound on an index into a fixed array (n < 4 becomes n <= 4): new writes buf[4],
 * an out-of-bounds write in the new version only; n < 0 overflows in both versions (an
 * ordinary error, no divergence). n in [-2, 6]. Sanity program: exactly 1 diff path. */
#include "penumbra.h"

static char buf[4];

int main(void) {
  int n;
  penumbra_make_symbolic(&n, sizeof n, "n");
  penumbra_assume(n >= -2 && n <= 6);
  if (change(n < 4, n <= 4))
    buf[n] = 1;
  return 0;
}
