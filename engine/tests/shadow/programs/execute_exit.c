/* penumbra_execute group. A function kept whole for each version, as unify writes one it
 * cannot merge finer (`change(parse_old(x), parse_new(x))`, both inlined), whose versions stop
 * with a usage error on some inputs: the sides still meet where both return, so the block
 * diverges only where the versions then behave differently, not on every path. The old
 * version rejects x < -1, the new one x < -2, and the new one's result is x > 1 (old: x > 0).
 * x = -3: both exit with 2 (no divergence); x = -2: old exits, new goes on; x = 1: the results
 * differ. x in [-3, 3]. */
#include "penumbra.h"
#include <stdlib.h>

static inline __attribute__((always_inline)) int parse_old(int x) {
  if (x < -1)
    exit(2);
  return x > 0;
}

static inline __attribute__((always_inline)) int parse_new(int x) {
  if (x < -2)
    exit(2);
  return x > 1;
}

int main(void) {
  int x;
  penumbra_make_symbolic(&x, sizeof x, "x");
  penumbra_assume(x >= -3 && x <= 3);
  if (change(parse_old(x), parse_new(x)))
    return 1;
  return 0;
}
