/* Changes at other widths: a short limit, an unsigned comparison (negative values wrap to
 * large ones) and a 64-bit product that only overflows 32 bits in the new version.
 * x in [-3, 3], w in [0, 2]. */
#include "penumbra.h"

int classify(int x, int w) {
  short limit = change((short)2, (short)1);
  if (x > limit)
    return 1;
  unsigned u = (unsigned)x;
  if (u < change(3u, 2u))
    return 2;
  long long big = (long long)w * change(1000000000LL, 3000000000LL);
  if (big > 2147483647LL)
    return 3;
  return 0;
}

int main(void) {
  int x, w;
  penumbra_make_symbolic(&x, sizeof x, "x");
  penumbra_make_symbolic(&w, sizeof w, "w");
  penumbra_assume(x >= -3 && x <= 3);
  penumbra_assume(w >= 0 && w <= 2);
  return classify(x, w);
}
