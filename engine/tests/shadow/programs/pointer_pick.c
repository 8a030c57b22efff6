/* A changed choice of array: the new version reads a longer table through the same pointer.
 * Indices 3 and 4 are out of bounds in the old version only (a fix); values differ too.
 * i in [-1, 5]. */
#include "penumbra.h"

static const int short_table[3] = {5, 0, 7};
static const int long_table[5] = {5, 1, 7, 2, 9};

int main(void) {
  int i;
  penumbra_make_symbolic(&i, sizeof i, "i");
  penumbra_assume(i >= -1 && i <= 5);
  const int *t = change(short_table, long_table);
  if (i < 0 || i >= 5)
    return 0;
  int v = t[i];
  if (v > 6)
    return 2;
  return v > 0;
}
