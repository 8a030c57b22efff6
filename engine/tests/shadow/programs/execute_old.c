/* penumbra_execute group (ShadowJPF+ execute blocks). Code removed by the patch as an
 * execute(OLD) block that branches inside: the old version clamps y at 2. Conservative
 * semantics: every input reaching the block diverges; ShadowJPF+: only inputs whose later
 * branch differs (y > 2 before the clamp). x in [0, 4]. */
#include "penumbra.h"

int main(void) {
  int x;
  penumbra_make_symbolic(&x, sizeof x, "x");
  penumbra_assume(x >= 0 && x <= 4);
  int y = x;
  if (penumbra_execute(OLD)) {
    if (y > 2)
      y = 2;
  }
  if (y >= 3)
    return 2;
  return y > 0;
}
