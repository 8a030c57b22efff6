/* Two interacting changes: each sets a flag in the new version, and only an input setting
 * both reaches the new code. The flags are combined with & (no short circuit), so neither
 * change alone makes a branch differ: only their interaction diverges (x > 2 and y > 2).
 * x, y in [-4, 4]. */
#include "penumbra.h"

int guard(int x, int y) {
  int a = change(0, x > 2);
  int b = change(0, y > 2);
  if (a & b)
    return 2;
  if (x + y > 3)
    return 1;
  return 0;
}

int main(void) {
  int x, y;
  penumbra_make_symbolic(&x, sizeof x, "x");
  penumbra_make_symbolic(&y, sizeof y, "y");
  penumbra_assume(x >= -4 && x <= 4);
  penumbra_assume(y >= -4 && y <= 4);
  return guard(x, y);
}
