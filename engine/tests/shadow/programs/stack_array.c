/* Changed bound of a fill loop over a stack array: the new loop runs to count <= 4 and
 * writes one element past the array for count >= 4 (a regression). count in [0, 6]. */
#include "penumbra.h"

int fill(int count, int v) {
  int a[4];
  int i;
  for (i = 0; i < count && change(i < 4, i <= 4); i++)
    a[i] = v;
  int s = 0;
  for (int j = 0; j < i && j < 4; j++)
    s += a[j];
  return s > 2;
}

int main(void) {
  int count, v;
  penumbra_make_symbolic(&count, sizeof count, "count");
  penumbra_make_symbolic(&v, sizeof v, "v");
  penumbra_assume(count >= 0 && count <= 6);
  penumbra_assume(v >= 0 && v <= 1);
  return fill(count, v);
}
