/* calloc of a symbolic count whose element size the patch changes from 2 to 1 byte: reading the
 * last 2-byte element's second byte (index 2k+1) overflows the new block of k + 1 bytes when
 * 2k + 1 > k, i.e. always for k >= 1... only the index the program reads decides. k in [0, 4],
 * i in [0, 5]. */
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
