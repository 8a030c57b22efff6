/* foo from the shadow papers: the patch fixes the assertion failure for x = -1 and
 * introduces one for x = 0. x in [-8, 8]. Sanity program: exactly 2 diff paths. */
#include "penumbra.h"

int foo(int x) {
  int y;
  if (x < 0) {
    y = change(-x, x * x);
  } else {
    y = 2 * x;
  }
  y = change(y, y + 1);
  if (y > 1) {
    return 0;
  } else {
    if (y == 1)
      penumbra_assert(0);
  }
  return 1;
}

int main(void) {
  int x;
  penumbra_make_symbolic(&x, sizeof x, "x");
  penumbra_assume(x >= -8 && x <= 8);
  return foo(x);
}
