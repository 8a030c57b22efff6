/* Changed condition: `x > 5` becomes `x > 3` (pattern 1 on a condition). Divergent inputs are
 * x = 4 and x = 5; after the branch the new version classifies x further.
 * x in [-8, 8]. Sanity program: the oracle must count exactly 2 diff paths. */
#include <stdio.h>
#include "penumbra.h"

int classify(int x) {
  if (change(x > 5, x > 3)) {
    if (x % 2 == 0)
      return 2;
    return 3;
  }
  return 0;
}

int main(void) {
  int x;
  penumbra_make_symbolic(&x, sizeof x, "x");
  penumbra_assume(x >= -8 && x <= 8);
  printf("%d\n", classify(x));
  return 0;
}
