/* A change that reaches only the exit status and the output: the versions never branch
 * differently, so there is no divergence (an exit status is output, not a decision).
 * x in [-3, 3]. */
#include <stdio.h>
#include "penumbra.h"

int main(void) {
  int x;
  penumbra_make_symbolic(&x, sizeof x, "x");
  penumbra_assume(x >= -3 && x <= 3);
  int r = x + change(1, 2);
  printf("%d\n", r);
  if (x > 0)
    return r;
  return 0;
}
