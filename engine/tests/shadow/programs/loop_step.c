/* Changed loop increment: the new version steps by 2, so it visits fewer elements and a
 * later check sees a different count. n in [0, 7]. */
#include "penumbra.h"

int visits(int n) {
  int count = 0;
  for (int i = 0; i < n; i += change(1, 2))
    count++;
  if (count >= 3)
    return 1;
  return 0;
}

int main(void) {
  int n;
  penumbra_make_symbolic(&n, sizeof n, "n");
  penumbra_assume(n >= 0 && n <= 7);
  return visits(n);
}
