/* penumbra_execute group (ShadowJPF+ execute blocks). A statement added in the new version
 * as an execute(NEW) block: under the current, conservative semantics (an execute block is
 * change(0, 1)) reaching it is an immediate divergence; under ShadowJPF+'s semantics the
 * block runs against the new state only and the versions diverge only where they later
 * branch differently (x == 2: the old value 2 takes the first branch, the new value 3 not).
 * x in [-3, 3]. */
#include "penumbra.h"

int main(void) {
  int x;
  penumbra_make_symbolic(&x, sizeof x, "x");
  penumbra_assume(x >= -3 && x <= 3);
  int y = x;
  if (x > 0) {
    if (penumbra_execute(NEW)) {
      y = y + 1;
    }
  }
  if (y == 2)
    return 1;
  return 0;
}
