/* Changed pointer arithmetic in a walk over a string-like array: the new version steps over
 * two elements at a time, so it may miss the 'x' or jump over the terminator: from start = 4
 * it reads word[6], out of bounds in the new version only. start in [0, 5]. */
#include "penumbra.h"

static const char word[6] = {'a', 'b', 'x', 'c', 'd', 0};

int find_x(int start) {
  const char *p = word + start;
  while (*p && *p != 'x')
    p = p + change(1, 2);
  return *p == 'x';
}

int main(void) {
  int start;
  penumbra_make_symbolic(&start, sizeof start, "start");
  penumbra_assume(start >= 0 && start <= 5);
  return find_x(start);
}
