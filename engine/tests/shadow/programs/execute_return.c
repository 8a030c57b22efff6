/* penumbra_execute group (ShadowJPF+ execute blocks). An early return added in the new
 * version inside an execute(NEW) block: ShadowJPF+ declares a divergence when one version
 * returns early inside such a block (x < 0 here), not merely on reaching the block.
 * x in [-2, 2]. */
#include "penumbra.h"

int check(int x) {
  if (penumbra_execute(NEW)) {
    if (x < 0)
      return -1;
  }
  if (x == 0)
    return 0;
  return 1;
}

int main(void) {
  int x;
  penumbra_make_symbolic(&x, sizeof x, "x");
  penumbra_assume(x >= -2 && x <= 2);
  return check(x) + 1;
}
