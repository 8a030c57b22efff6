/* The change behind the first decision, on the side depth-first search takes last: 2^16 paths
 * of spin() before it (benches/benches/engine.rs, search/first_diff). */
#include "penumbra.h"
static int spin(const char *b) {
  int n = 0;
  for (int i = 0; i < 16; i++)
    if (b[i] == 'a') n++;
  return n;
}
int main(void) {
  char b[18];
  penumbra_make_symbolic(b, sizeof b, "b");
  if (b[0] == 'x') { return change(1, 2); }
  return spin(b + 1);
}
