/* Changed malloc size: the buffer grows from 4 to 6 bytes (a fix: indices 4 and 5 were out
 * of bounds in the old version only). Only inputs that write past 4 bytes diverge; the size
 * itself is not a branch. i in [-1, 7]. */
#include <stdlib.h>
#include "penumbra.h"

int main(void) {
  int i;
  penumbra_make_symbolic(&i, sizeof i, "i");
  penumbra_assume(i >= -1 && i <= 7);
  char *p = malloc(change(4, 6));
  if (i >= 0)
    p[i] = 7;
  free(p);
  return 0;
}
