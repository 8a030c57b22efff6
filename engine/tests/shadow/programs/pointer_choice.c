/* A pointer chosen by a changed condition, then walked: strings of different lengths, so a
 * version reads past its own string's end only where the versions chose differently (old
 * "big", new "small" for 51 <= x <= 60). Neither version ever reads outside its object: the
 * address is in one object per version and path (KLEE's resolution per version), never an
 * error of the other. x in [45, 66]. */
#include "penumbra.h"

int main(void) {
  int x;
  penumbra_make_symbolic(&x, sizeof x, "x");
  penumbra_assume(x >= 45 && x <= 66);
  const char *s = x > change(50, 60) ? "big" : "small";
  int n = 0;
  while (s[n])
    n++;
  return n;
}
