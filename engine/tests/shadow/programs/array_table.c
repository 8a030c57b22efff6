/* Changed array size: a lookup table grew from 4 to 6 entries and the bound check followed,
 * but the table in this unified program keeps the larger size (rule 6): the old version
 * rejects indices 4 and 5 that the new one looks up. i in [-1, 7]. */
#include "penumbra.h"

static const int table[6] = {3, 1, 4, 1, 5, 9};

int lookup(int i) {
  if (i < 0 || i >= change(4, 6))
    return -1;
  int v = table[i];
  if (v > 3)
    return 2;
  return 1;
}

int main(void) {
  int i;
  penumbra_make_symbolic(&i, sizeof i, "i");
  penumbra_assume(i >= -1 && i <= 7);
  return lookup(i) + 1;
}
