/* bsearch_m2.c: a mutant of bsearch: binary search in a table of 16 primes.
 * Changes in this unified file:
 *   C2: lo <= hi becomes lo < hi: keys found only in a one-element range are missed
 * Generated from one template per program; other mutants carry other changes. */
#include "penumbra.h"

#define SIZE 16
static const int primes[SIZE] = {2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53};

/* The index of key in primes, or -1: binary search over [lo, hi]. */
static int find(int key) {
  int lo = 0, hi = SIZE - 1;
  while (change(lo <= hi, lo < hi)) {
    int mid = (lo + hi) / 2;
    if (primes[mid] == key)
      return mid;
    if (primes[mid] < key)
      lo = mid + 1;
    else
      hi = mid - 1;
  }
  return -1;
}

int main(void) {
  int key;
  penumbra_make_symbolic(&key, sizeof key, "key");
  penumbra_assume(key >= 0 && key <= 60);
  int i = find(key);
  if (i >= 0)
    penumbra_assert(primes[i] == key);
  return i >= 0;
}
