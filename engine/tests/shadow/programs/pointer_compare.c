/* A changed end pointer (end - 1: the new version stops one element early) in a pointer
 * comparison loop that sums until a negative element. start in [0, 4], neg in [0, 4]. */
#include "penumbra.h"

int main(void) {
  int start, neg;
  penumbra_make_symbolic(&start, sizeof start, "start");
  penumbra_make_symbolic(&neg, sizeof neg, "neg");
  penumbra_assume(start >= 0 && start <= 4);
  penumbra_assume(neg >= 0 && neg <= 4);
  int v[5] = {1, 2, 3, 4, 5};
  v[neg] = -1;
  int *end = v + 5;
  int sum = 0;
  for (int *p = v + start; p < change(end, end - 1) && *p >= 0; p++)
    sum += *p;
  if (sum > 5)
    return 2;
  return sum > 0;
}
