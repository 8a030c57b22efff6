/* Changed argument of a call: the caller passes x + 1 to a classifier that branches twice.
 * x in [-5, 5]. */
#include "penumbra.h"

static int sign_class(int v) {
  if (v < 0)
    return -1;
  if (v == 0)
    return 0;
  return 1;
}

int main(void) {
  int x;
  penumbra_make_symbolic(&x, sizeof x, "x");
  penumbra_assume(x >= -5 && x <= 5);
  int a = sign_class(change(x, x + 1));
  int b = sign_class(x - 2);
  if (a == b)
    return 1;
  return 0;
}
