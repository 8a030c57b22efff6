/* A variable-length array whose length the patch changes: the new version drops the room for
 * the terminator, so writing it overflows the array for every n. n in [0, 5]. */
#include "penumbra.h"

int main(void) {
  int n;
  penumbra_make_symbolic(&n, sizeof n, "n");
  penumbra_assume(n >= 0 && n <= 5);
  char word[change(n + 1, n + (n > 3))];
  for (int j = 0; j < n; j++)
    word[j] = 'a';
  word[n] = 0;
  return word[0];
}
