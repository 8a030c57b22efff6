/* realloc to a symbolic size that the patch shrinks by one: the bytes copied from the old block
 * are the smaller size's, and reading the last one overflows the new block in the new version
 * only. n in [1, 6]. */
#include <stdlib.h>
#include <string.h>
#include "penumbra.h"

int main(void) {
  int n;
  penumbra_make_symbolic(&n, sizeof n, "n");
  penumbra_assume(n >= 1 && n <= 6);
  char *p = malloc(4);
  memset(p, 'a', 4);
  p = realloc(p, change(n + 1, n));
  int r = p[0] == 'a';
  r += p[n] == 0;
  free(p);
  return r;
}
