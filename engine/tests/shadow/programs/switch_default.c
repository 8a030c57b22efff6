/* A switch whose cases 2 and 3 share a target and whose case 7 labels the default's
 * statement (the frontend still gives case 7 a block of its own, so the engine asks about it:
 * x = 7 and 8 diverge there). A changed selector (x - 1) moves inputs between targets.
 * x in [0, 8]. */
#include "penumbra.h"

int kind(int x) {
  switch (change(x, x - 1)) {
  case 1:
    return 10;
  case 2:
  case 3:
    return x > 3 ? 21 : 20;
  case 7:
  default:
    return 0;
  }
}

int main(void) {
  int x;
  penumbra_make_symbolic(&x, sizeof x, "x");
  penumbra_assume(x >= 0 && x <= 8);
  int k = kind(x);
  if (k > 15)
    return 2;
  return k > 0;
}
