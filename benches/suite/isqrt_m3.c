/* isqrt_m3.c: a mutant of isqrt: integer square root by linear search.
 * Changes in this unified file:
 *   C3: the step becomes 2: odd roots are skipped
 * Generated from one template per program; other mutants carry other changes. */
#include "penumbra.h"

/* The integer square root by linear search: the largest r with r * r <= n. */
static int isqrt(int n) {
  int r = 0;
  while ((r + 1) * (r + 1) <= n)
    r += change(1, 2);
  return r;
}

int main(void) {
  int n;
  penumbra_make_symbolic(&n, sizeof n, "n");
  penumbra_assume(n >= 0 && n <= 150);
  int r = isqrt(n);
  penumbra_assert(r * r <= n);
  penumbra_assert((r + 1) * (r + 1) > n);
  return r;
}
