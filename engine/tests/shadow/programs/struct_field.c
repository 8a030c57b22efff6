/* A changed field update in a struct: the new version also counts rejected requests, which
 * a later quota check sees. n in [0, 4], reject in [0, 1]. */
#include "penumbra.h"

struct stats {
  int accepted;
  int rejected;
};

static void note(struct stats *s, int reject) {
  if (reject)
    s->rejected = change(s->rejected, s->rejected + 1);
  else
    s->accepted++;
}

int main(void) {
  int n, reject;
  penumbra_make_symbolic(&n, sizeof n, "n");
  penumbra_make_symbolic(&reject, sizeof reject, "reject");
  penumbra_assume(n >= 0 && n <= 4);
  penumbra_assume(reject >= 0 && reject <= 1);
  struct stats s = {0, 0};
  for (int i = 0; i < n; i++)
    note(&s, reject && i % 2 == 0);
  if (s.rejected + s.accepted < 3)
    return 1;
  return 0;
}
