/* A buffer grown without branches until the word fits (old: doubled up to four times) or by one
 * fixed step (new: doubled once): its size is a symbolic term in each version, and words of 32
 * bytes or more overflow the new buffer in the memset (a regression, one check, no branch).
 * n in [0, 40]. */
#include <stdlib.h>
#include <string.h>
#include "penumbra.h"

int main(void) {
  int n;
  penumbra_make_symbolic(&n, sizeof n, "n");
  penumbra_assume(n >= 0 && n <= 40);
  size_t need = n + 1, cap = 16;
  for (int i = 0; i < 4; i++)
    cap <<= change(cap < need, (i == 0) & (cap < need));
  char *word = malloc(cap);
  memset(word, 'x', need);
  free(word);
  return 0;
}
