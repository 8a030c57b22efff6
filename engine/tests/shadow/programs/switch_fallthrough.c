/* A switch with fall-through whose selector is unchanged, but a changed value inside one
 * case decides a later branch; plus a changed default action. op in [-1, 4], v in [0, 3]. */
#include "penumbra.h"

int apply(int op, int v) {
  int acc = v;
  switch (op) {
  case 0:
    acc += change(1, 2);
    /* fall through */
  case 1:
    acc *= 2;
    break;
  case 3:
    acc = 0;
    break;
  default:
    acc = change(acc, -acc);
    break;
  }
  if (acc > 4)
    return 2;
  if (acc < 0)
    return 0;
  return 1;
}

int main(void) {
  int op, v;
  penumbra_make_symbolic(&op, sizeof op, "op");
  penumbra_make_symbolic(&v, sizeof v, "v");
  penumbra_assume(op >= -1 && op <= 4);
  penumbra_assume(v >= 0 && v <= 3);
  return apply(op, v);
}
