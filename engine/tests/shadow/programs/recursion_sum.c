/* Recursion with a changed argument: the new version recurses on n - 2, so it sums every
 * other number and reaches the base case on a different parity. n in [0, 6]. */
#include "penumbra.h"

int sum_down(int n) {
  if (n <= 0)
    return 0;
  return n + sum_down(n - change(1, 2));
}

int main(void) {
  int n;
  penumbra_make_symbolic(&n, sizeof n, "n");
  penumbra_assume(n >= 0 && n <= 6);
  int s = sum_down(n);
  if (s > 8)
    return 2;
  return s > 3;
}
