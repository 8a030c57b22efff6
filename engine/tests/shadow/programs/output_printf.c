/* Divergences that show only in output (issue 14): the versions print 2x and (x << 1) | (x == 7),
 * equal except at x = 7 (14 against 15), and exit with 0 and x == 42, equal except at x = 42.
 * No branch tests either value. */
#include <stdio.h>
#include "penumbra.h"

int main(void) {
  int x;
  penumbra_make_symbolic(&x, sizeof x, "x");
  printf("%d\n", change(x * 2, (x << 1) | (x == 7))); /* the printf */
  return change(0, x == 42);                          /* the status */
}
