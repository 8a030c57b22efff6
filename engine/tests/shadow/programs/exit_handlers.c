/* atexit handlers and destructors run at exit, after main (issue 14), in glibc's order: the
 * handlers last registered first, then the destructors. The destructor prints a value whose
 * versions differ at total == 3, an output divergence after main returned; the handler
 * registered by the constructor prints total + 1 in both versions. x in [0, 5]. */
#include <stdio.h>
#include <stdlib.h>
#include "penumbra.h"

static int total;

static void report(void) { printf("%d\n", total + 1); }

__attribute__((constructor)) static void setup(void) { atexit(report); }

__attribute__((destructor)) static void finish(void) {
  printf("%d\n", change(total, total + (total == 3))); /* the destructor's output */
}

int main(void) {
  int x;
  penumbra_make_symbolic(&x, sizeof x, "x");
  penumbra_assume(x >= 0 && x <= 5);
  total = x;
  if (x > 4)
    exit(2);
  return 0;
}
