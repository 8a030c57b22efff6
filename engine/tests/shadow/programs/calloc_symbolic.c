/* calloc of k + 1 elements whose size the patch shrinks from 2 bytes to 1: the program reads
 * index i < 2k + 2, always inside the old block of 2k + 2 bytes, and past the new block of k + 1
 * bytes when i > k (a regression). k in [0, 4], i in [0, 5]. */
#include <stdlib.h>
#include "penumbra.h"

int main(void) {
  int k, i;
  penumbra_make_symbolic(&k, sizeof k, "k");
  penumbra_make_symbolic(&i, sizeof i, "i");
  penumbra_assume(k >= 0 && k <= 4 && i >= 0 && i <= 5);
  char *p = calloc(k + 1, change(2, 1));
  int r = 0;
  if (i < 2 * k + 2)
    r = p[i];
  free(p);
  return r;
}
