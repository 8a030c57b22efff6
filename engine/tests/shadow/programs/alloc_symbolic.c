/* A symbolic allocation size that the patch changes (issue 34's reproducer): the old version
 * sizes the buffer by the larger of two lengths, the new one by the first only, so every input
 * with b > a writes past the new buffer (a regression). The size is no branch: the bounds check
 * against the size term is. a, b in [0, 4]. */
#include <stdlib.h>
#include "penumbra.h"

int main(void) {
  int a, b;
  penumbra_make_symbolic(&a, sizeof a, "a");
  penumbra_make_symbolic(&b, sizeof b, "b");
  penumbra_assume(a >= 0 && a <= 4 && b >= 0 && b <= 4);
  size_t n = change(a > b ? a : b, a);
  char *s = malloc(n + 1);
  s[b] = 0;
  free(s);
  return 0;
}
