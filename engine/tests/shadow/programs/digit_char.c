/* A one-byte input and a changed character bound: the old digit test stopped at '8' (a bug
 * fixed by the patch). c in ['.', '<'] (46 to 60). */
#include "penumbra.h"

static int is_digit(char c) { return c >= '0' && c <= change('8', '9'); }

int main(void) {
  char c;
  penumbra_make_symbolic(&c, sizeof c, "c");
  penumbra_assume(c >= '.' && c <= '<');
  if (is_digit(c))
    return c - '0';
  if (c == ':')
    return 20;
  return 10;
}
