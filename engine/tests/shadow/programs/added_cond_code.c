/* Added conditional code if (change(0, C)) {...} (pattern 4): the new version resets the
 * counter for x == 3. x in [-8, 8]. */
#include "penumbra.h"

int count_up(int x) {
  int n = x;
  if (change(0, x == 3))
    n = 0;
  if (n > 2)
    return 1;
  return 0;
}

int main(void) {
  int x;
  penumbra_make_symbolic(&x, sizeof x, "x");
  penumbra_assume(x >= -8 && x <= 8);
  return count_up(x);
}
