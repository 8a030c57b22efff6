/* Changed values stored in memory before a divergence and read after it: once the path has
 * diverged it must read the new version's values (a[0] is 2 there, a[1] holds x + 1).
 * x in [-2, 4]. */
#include "penumbra.h"

int main(void) {
  int x;
  penumbra_make_symbolic(&x, sizeof x, "x");
  penumbra_assume(x >= -2 && x <= 4);
  int a[2];
  a[0] = change(1, 2);
  a[1] = x + change(0, 1);
  int r = 0;
  if (change(x > 0, x > 1))
    r = 1;
  if (a[0] == 2)
    r += 2;
  if (a[1] > 3)
    r += 4;
  return r;
}
