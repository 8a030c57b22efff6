/* Constructors run before main (issue 14): `limit` is 5 when main starts, so the versions of
 * the comparison differ at x == 5 only (old x > limit, new x >= limit). Skipping the
 * constructor would leave limit at 0 and move the divergence to x == 0. x in [0, 9]. */
#include "penumbra.h"

static int limit;

__attribute__((constructor)) static void init_limit(void) { limit = 5; }

int main(void) {
  int x;
  penumbra_make_symbolic(&x, sizeof x, "x");
  penumbra_assume(x >= 0 && x <= 9);
  if (change(x > limit, x >= limit)) /* the comparison */
    return 1;
  return 0;
}
