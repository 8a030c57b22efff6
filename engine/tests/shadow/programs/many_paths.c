/* Many diff paths: a changed threshold inside a loop over the bits of the input; after the
 * first iteration where the versions differ, the new version's remaining decisions split the
 * path further. bits in [0, 31]. */
#include "penumbra.h"

int weigh(int bits) {
  int w = 0;
  for (int i = 0; i < 5; i++) {
    if ((bits >> i) & 1)
      w += i;
    if (w > change(4, 3))
      w -= 2;
  }
  return w;
}

int main(void) {
  int bits;
  penumbra_make_symbolic(&bits, sizeof bits, "bits");
  penumbra_assume(bits >= 0 && bits <= 31);
  return weigh(bits);
}
