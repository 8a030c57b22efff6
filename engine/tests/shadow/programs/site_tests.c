/* Two divergence sites, four diff paths each: the versions part at x == 1 (line A) and at
 * x == -6 (line B), and each diverged path then forks on y into four paths (the new version's
 * path after either line calls tail(y)). With
 * --max-site-tests 2 each site writes two tests; the other four diff paths are counted only.
 * x in [-8, 8], y free. */
#include "penumbra.h"

static int tail(int y) {
  if (y == 0)
    return 10;
  if (y == 1)
    return 11;
  if (y == 2)
    return 12;
  return 13;
}

int main(void) {
  int x, y;
  penumbra_make_symbolic(&x, sizeof x, "x");
  penumbra_make_symbolic(&y, sizeof y, "y");
  penumbra_assume(x >= -8 && x <= 8);
  int r = 0;
  if (change(x > 0, x > 1)) /* line A: x == 1 diverges */
    r = 1;
  if (change(x < -5, x < -6)) /* line B: x == -6 diverges */
    r = 2;
  return r + tail(y);
}
