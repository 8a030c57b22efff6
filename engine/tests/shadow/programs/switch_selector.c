/* Changed switch selector: the new version dispatches on (x + 1) % 4. Cases 1 and 2 share
 * a target, so the engine asks one question per distinct target. x in [-5, 5]. */
#include "penumbra.h"

int dispatch(int x) {
  int r;
  switch (change(x % 4, (x + 1) % 4)) {
  case 0:
    r = 10;
    break;
  case 1:
  case 2:
    r = 20;
    break;
  case 3:
    r = x > 0 ? 30 : 31;
    break;
  default:
    r = 0;
    break;
  }
  if (r >= 20)
    return 1;
  return 0;
}

int main(void) {
  int x;
  penumbra_make_symbolic(&x, sizeof x, "x");
  penumbra_assume(x >= -5 && x <= 5);
  return dispatch(x);
}
