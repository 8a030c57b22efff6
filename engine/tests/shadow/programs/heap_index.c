/* A changed index computation into a heap buffer: the new version indexes from the end, and
 * the value read decides a branch. k = 4 is out of bounds in both versions (old reads buf[4],
 * new buf[-1]): an error in both, not a divergence. k in [0, 4], v in [0, 2]. */
#include <stdlib.h>
#include "penumbra.h"

int main(void) {
  int k, v;
  penumbra_make_symbolic(&k, sizeof k, "k");
  penumbra_make_symbolic(&v, sizeof v, "v");
  penumbra_assume(k >= 0 && k <= 4);
  penumbra_assume(v >= 0 && v <= 2);
  int *buf = malloc(4 * sizeof(int));
  for (int i = 0; i < 4; i++)
    buf[i] = i * v;
  int at = change(k, 3 - k);
  int r = 0;
  if (buf[at] > 2)
    r = 1;
  free(buf);
  return r;
}
