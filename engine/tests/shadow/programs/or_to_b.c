/* Strengthening `A || B` to `B` written as change(A || B, B) (pattern 3): a warning fired
 * for x < -3 or y > 2, now only for y > 2. x, y in [-5, 5]. */
#include "penumbra.h"

int warn(int x, int y) {
  if (change(x < -3 || y > 2, y > 2)) {
    if (x > y)
      return 2;
    return 1;
  }
  return 0;
}

int main(void) {
  int x, y;
  penumbra_make_symbolic(&x, sizeof x, "x");
  penumbra_make_symbolic(&y, sizeof y, "y");
  penumbra_assume(x >= -5 && x <= 5);
  penumbra_assume(y >= -5 && y <= 5);
  return warn(x, y);
}
