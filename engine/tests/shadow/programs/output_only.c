/* A change that reaches only the output and the exit status: the versions never branch
 * differently, but they print different numbers, a divergence at the printf for every x
 * (issue 14). x in [-3, 3]. */
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
