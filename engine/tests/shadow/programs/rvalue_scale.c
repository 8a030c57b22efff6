/* Changed rvalue: the patch scales by 3 instead of 2 before a range check.
 * Pattern 1 (x = y + change(E1, E2)). x in [-8, 8]. */
#include "penumbra.h"

int bucket(int x) {
  int y = x * change(2, 3);
  if (y > 6)
    return 2;
  if (y < -6)
    return 0;
  return 1;
}

int main(void) {
  int x;
  penumbra_make_symbolic(&x, sizeof x, "x");
  penumbra_assume(x >= -8 && x <= 8);
  return bucket(x);
}
