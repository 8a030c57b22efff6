/* Shift out of range in one version only: the new version shifts one bit further, so
 * s = 31 fails in the new version only; s = 32 fails in both. s in [28, 33]. */
#include "penumbra.h"

int main(void) {
  int s;
  penumbra_make_symbolic(&s, sizeof s, "s");
  penumbra_assume(s >= 28 && s <= 33);
  unsigned m = 1u << change(s, s + 1);
  if (m > 1000)
    return 1;
  return 0;
}
