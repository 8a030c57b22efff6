/* offbyone, before the patch: writes buf[n] for n below 4. */
#include "penumbra.h"

static char buf[4];

int main(void) {
  int n;
  penumbra_make_symbolic(&n, sizeof n, "n");
  if (n < 4)
    buf[n] = 1;
  return 0;
}
