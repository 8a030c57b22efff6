/* gcd (a Rational.gcd mutant from the ShadowJPF+ evaluation) with a changed base case:
 * b == 1 now returns a directly, and b == 0 recurses into a % 0, a division by zero in the
 * new version only. a, b in [0, 6]. */
#include "penumbra.h"

int gcd(int a, int b) {
  if (b == change(0, 1))
    return a;
  return gcd(b, a % b);
}

int main(void) {
  int a, b;
  penumbra_make_symbolic(&a, sizeof a, "a");
  penumbra_make_symbolic(&b, sizeof b, "b");
  penumbra_assume(a >= 0 && a <= 6);
  penumbra_assume(b >= 0 && b <= 6);
  return gcd(a, b) > 1;
}
