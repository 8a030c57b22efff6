/* Removed straight-line code if (change(1, 0)) {...} (pattern 5), inside a loop: the first
 * time it is reached diverges. x in [0, 6]. */
#include "penumbra.h"

int drain(int x) {
  int total = 0;
  for (int i = 0; i < x; i++) {
    if (i == 2) {
      if (change(1, 0)) {
        total += 10;
      }
    }
    total += i;
  }
  return total > 5;
}

int main(void) {
  int x;
  penumbra_make_symbolic(&x, sizeof x, "x");
  penumbra_assume(x >= 0 && x <= 6);
  return drain(x);
}
