/* A change-interaction error in the style of Boehme et al.: a changed scale and a changed
 * cap together let the index reach 4, past the end of the array; with either change alone
 * the index stays below 4. n in [0, 3]. */
#include "penumbra.h"

static int hist[4];

int record(int n) {
  int idx = n * change(1, 2);
  int cap = change(3, 4);
  if (idx > cap)
    idx = cap;
  hist[idx]++;
  return hist[idx];
}

int main(void) {
  int n;
  penumbra_make_symbolic(&n, sizeof n, "n");
  penumbra_assume(n >= 0 && n <= 3);
  return record(n);
}
