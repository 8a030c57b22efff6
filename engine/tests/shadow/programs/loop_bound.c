/* Changed loop bound (i < n becomes i <= n): one more iteration, then a check of the sum.
 * n in [-2, 6]. */
#include "penumbra.h"

int triangle(int n) {
  int sum = 0;
  for (int i = 0; change(i < n, i <= n); i++)
    sum += i;
  if (sum > 6)
    return 2;
  return sum > 0;
}

int main(void) {
  int n;
  penumbra_make_symbolic(&n, sizeof n, "n");
  penumbra_assume(n >= -2 && n <= 6);
  return triangle(n);
}
