/* Added straight-line code if (change(0, 1)) {...} (pattern 5): reaching it is an immediate
 * divergence; every path through it afterwards is a diff path. x in [-4, 4]. */
#include "penumbra.h"

static int calls;

int step(int x) {
  if (x > 2)
    return 0;
  if (change(0, 1)) {
    calls++;
  }
  if (x + calls > 0)
    return 1;
  return 2;
}

int main(void) {
  int x;
  penumbra_make_symbolic(&x, sizeof x, "x");
  penumbra_assume(x >= -4 && x <= 4);
  return step(x);
}
