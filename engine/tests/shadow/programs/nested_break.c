/* Nested loops with a changed break condition in the inner loop: the new version leaves the
 * inner loop one step earlier, which changes how often the outer loop's check runs.
 * rows in [0, 3], limit in [0, 3]. */
#include "penumbra.h"

int scan(int rows, int limit) {
  int hits = 0;
  for (int r = 0; r < rows; r++) {
    for (int c = 0; c < 3; c++) {
      if (c + r >= change(limit + 1, limit))
        break;
      hits++;
    }
  }
  if (hits > 4)
    return 2;
  return hits > 0;
}

int main(void) {
  int rows, limit;
  penumbra_make_symbolic(&rows, sizeof rows, "rows");
  penumbra_make_symbolic(&limit, sizeof limit, "limit");
  penumbra_assume(rows >= 0 && rows <= 3);
  penumbra_assume(limit >= 0 && limit <= 3);
  return scan(rows, limit);
}
