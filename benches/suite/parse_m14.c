/* parse_m14.c: a mutant of parse: a hand-written parser of a fixed-width numeric field (changed loop bound).
 * Changes in this unified file:
 *   C1: the loop bound gains + 1: the last character is parsed too (with C2: field[4] is read, out of bounds)
 *   C4: the range limit grows from 99 to 999
 * Generated from one template per program; other mutants carry other changes. */
#include "penumbra.h"

#define WIDTH 4

/* A fixed-width numeric field of a record: optional '-', then decimal digits, ended by the
 * first non-digit or the field's end; no terminating NUL. */
static char field[WIDTH];

static int parse(int *value) {
  int i = 0, neg = 0, val = 0, digits = 0;
  if (field[0] == '-') {
    neg = 1;
    i = 1;
  }
  while (i < WIDTH - 1 + change(0, 1)) {
    char c = field[i];
    if (c < '0' || c > '9')
      break;
    val = val * 10 + (c - '0');
    digits++;
    i++;
  }
  if (digits == 0)
    return -1;
  if (val > change(99, 999))
    return -2; /* out of range */
  *value = neg ? -val : val;
  return i;
}

int main(void) {
  char c0, c1, c2, c3;
  penumbra_make_symbolic(&c0, sizeof c0, "c0");
  penumbra_make_symbolic(&c1, sizeof c1, "c1");
  penumbra_make_symbolic(&c2, sizeof c2, "c2");
  penumbra_make_symbolic(&c3, sizeof c3, "c3");
  /* '-' .. '9': the sign, '.', '/' and the digits */
  penumbra_assume(c0 >= '-' && c0 <= '9');
  penumbra_assume(c1 >= '-' && c1 <= '9');
  penumbra_assume(c2 >= '-' && c2 <= '9');
  penumbra_assume(c3 >= '-' && c3 <= '9');
  field[0] = c0;
  field[1] = c1;
  field[2] = c2;
  field[3] = c3;
  int value = 0;
  int used = parse(&value);
  if (used < 0)
    return 100 - used;
  return value < 0 ? 50 + used : used;
}
