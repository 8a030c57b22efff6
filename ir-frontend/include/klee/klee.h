/* klee/klee.h as penumbra provides it: the KLEE spellings of penumbra's annotations, so that
 * existing KLEE harnesses compile unchanged with penumbra (and natively for replay, with
 * -DPENUMBRA_VERSION_OLD or -DPENUMBRA_VERSION_NEW, where penumbra's replay runtime defines
 * the klee_ functions as it does the penumbra_ ones).
 *
 * klee_make_symbolic, klee_assume and klee_assert are lowered like penumbra_make_symbolic,
 * penumbra_assume and penumbra_assert; klee_change(old, new) is change(old, new);
 * klee_int and klee_range are defined here on top of them.
 */
#ifndef PENUMBRA_KLEE_H
#define PENUMBRA_KLEE_H

#include "penumbra.h"
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

void klee_make_symbolic(void *addr, size_t nbytes, const char *name);
void klee_assume(uintptr_t condition);
void klee_assert(int condition);

/* A fresh symbolic int named `name`. */
static inline int klee_int(const char *name) {
  int x;
  klee_make_symbolic(&x, sizeof x, name);
  return x;
}

/* A fresh symbolic int in [start, end), as KLEE's klee_range. */
static inline int klee_range(int start, int end, const char *name) {
  int x;
  klee_make_symbolic(&x, sizeof x, name);
  klee_assume(x >= start);
  klee_assume(x < end);
  return x;
}

#ifdef __cplusplus
}
#endif

#endif /* PENUMBRA_KLEE_H */
