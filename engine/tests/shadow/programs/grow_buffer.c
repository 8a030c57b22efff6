/* A buffer grown until a word fits (old) or by one fixed step (new): words longer than 8 bytes
 * overflow the new buffer in the memset (a regression); the length is no branch of the copy,
 * the bounds check of its symbolic length is. n in [0, 20]. */
#include <stdlib.h>
#include <string.h>
#include "penumbra.h"

int main(void) {
  int n;
  penumbra_make_symbolic(&n, sizeof n, "n");
  penumbra_assume(n >= 0 && n <= 20);
  size_t cap = 4;
  if (n > cap) {
    if (penumbra_execute(OLD)) {
      while (cap < n)
        cap *= 2;
    } else {
      cap += 4;
    }
  }
  char *buf = malloc(cap);
  memset(buf, 'x', n);
  free(buf);
  return 0;
}
