/* offbyone, after the patch: the bound is relaxed to n <= 4 (one byte too far). */
#include "penumbra.h"

static char buf[4];

int main(void) {
  int n;
  penumbra_make_symbolic(&n, sizeof n, "n");
  if (n <= 4)
    buf[n] = 1;
  return 0;
}
