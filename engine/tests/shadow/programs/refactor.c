/* Refactorings that change syntax but not semantics: no input diverges, 0 diff paths.
 * x in [-8, 8]. */
#include "penumbra.h"

int twice(int x) { return change(x * 2, x + x); }

int main(void) {
  int x;
  penumbra_make_symbolic(&x, sizeof x, "x");
  penumbra_assume(x >= -8 && x <= 8);
  int y = twice(x);
  if (change(y > 4, !(y <= 4)))
    return 1;
  if (change(x << 1, y) == change(-6, -(3 * 2)))
    return 2;
  return 0;
}
