/* Two independent changed conditions in sequence: an input diverges at the first one whose
 * sides differ, and the path after it follows the new version through the second.
 * x in [-1, 8]. */
#include "penumbra.h"

int grade(int x) {
  int g = 0;
  if (change(x > 2, x > 3))
    g += 1;
  if (change(x > 5, x > 4))
    g += 2;
  if (g == 3)
    return 9;
  return g;
}

int main(void) {
  int x;
  penumbra_make_symbolic(&x, sizeof x, "x");
  penumbra_assume(x >= -1 && x <= 8);
  return grade(x);
}
