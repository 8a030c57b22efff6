/* A changed pointer on the left of an assignment: the new version stores into the next slot,
 * so later reads of both slots see different values in the two versions; writing at slot
 * 3 + 1 is out of bounds in the new version only. at in [0, 3], x in [-2, 2]. */
#include "penumbra.h"

int main(void) {
  int at, x;
  penumbra_make_symbolic(&at, sizeof at, "at");
  penumbra_make_symbolic(&x, sizeof x, "x");
  penumbra_assume(at >= 0 && at <= 3);
  penumbra_assume(x >= -2 && x <= 2);
  int slots[4] = {0, 0, 0, 0};
  int *p = slots + at;
  *(p + change(0, 1)) = x;
  if (slots[1] > 0)
    return 1;
  if (slots[2] < 0)
    return 2;
  return 0;
}
