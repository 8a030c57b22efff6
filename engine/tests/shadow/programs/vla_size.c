/* A changed array size that makes the array a variable-length one: the patch makes room for a
 * terminator (5 elements instead of 4). Only inputs that touch element 4 diverge (an
 * out-of-bounds write in the old version only); the size itself is not a decision.
 * n in [1, 4], last in [0, 1]. */
#include "penumbra.h"

int main(void) {
  int n, last;
  penumbra_make_symbolic(&n, sizeof n, "n");
  penumbra_make_symbolic(&last, sizeof last, "last");
  penumbra_assume(n >= 1 && n <= 4);
  penumbra_assume(last >= 0 && last <= 1);
  char buf[change(4, 5)];
  for (int i = 0; i < n; i++)
    buf[i] = 'a';
  if (last)
    buf[n] = 0;
  return buf[0] == 'a';
}
