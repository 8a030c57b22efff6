/* A do-while retry loop with a changed retry limit and a changed success test: the versions
 * can first differ at either condition, in any iteration. seed in [0, 9]. */
#include "penumbra.h"

int attempts(int seed) {
  int tries = 0;
  int v = seed;
  do {
    v = (v * 3 + 1) % 10;
    tries++;
    if (v == change(7, 4))
      break;
  } while (tries < change(3, 4));
  return tries;
}

int main(void) {
  int seed;
  penumbra_make_symbolic(&seed, sizeof seed, "seed");
  penumbra_assume(seed >= 0 && seed <= 9);
  int t = attempts(seed);
  if (t >= 3)
    return 1;
  return 0;
}
