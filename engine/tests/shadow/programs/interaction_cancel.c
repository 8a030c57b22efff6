/* Three changes, two of which cancel: the offset moves x up by one and the limit up by one,
 * so `x + offset < limit` is unchanged; the third change (a stricter lower bound) is the only
 * source of divergence, and only for x = -2. x in [-4, 4]. */
#include "penumbra.h"

int in_window(int x) {
  int offset = change(0, 1);
  int limit = change(3, 4);
  if (x + offset < limit && x >= change(-2, -1))
    return 1;
  return 0;
}

int main(void) {
  int x;
  penumbra_make_symbolic(&x, sizeof x, "x");
  penumbra_assume(x >= -4 && x <= 4);
  return in_window(x);
}
