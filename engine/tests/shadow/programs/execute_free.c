/* penumbra_execute group. A function kept whole for each version (`change(take_old(p),
 * take_new(p))`, inlined, as unify writes expr's toarith) whose versions both free the block
 * they read: whether a block is live is not kept per version, so the old side's free must
 * not leave the new side reading freed memory. Old returns x, new x + 1 where x = 3: one diff
 * path, x = 3 (`v == 3`: old true, new false). x in [0, 3]. */
#include "penumbra.h"
#include <stdlib.h>

static inline __attribute__((always_inline)) int take_old(int *p) {
  int v = *p;
  free(p);
  return v;
}

static inline __attribute__((always_inline)) int take_new(int *p) {
  int v = *p + (*p == 3);
  free(p);
  return v;
}

int main(void) {
  int x;
  penumbra_make_symbolic(&x, sizeof x, "x");
  penumbra_assume(x >= 0 && x <= 3);
  int *p = malloc(sizeof *p);
  if (!p)
    return 2;
  *p = x;
  if (change(take_old(p), take_new(p)) == 3)
    return 1;
  return 0;
}
