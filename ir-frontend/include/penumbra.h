/* penumbra.h: annotations for shadow symbolic execution with penumbra.
 *
 * A unified program merges the old and the new version of a patch and marks every edit with
 * change(old, new). The same file builds three ways:
 *
 *   - symbolic (no macro defined): what `penumbra` compiles. change(a, b) becomes a branch
 *     on penumbra_execute(OLD), and the annotations calls of declared functions that
 *     penumbra's frontend turns into IR instructions; nothing here needs a definition at
 *     link time (the declarations are weak, so a wllvm build of an annotated project also
 *     links natively).
 *   - native old (-DPENUMBRA_VERSION_OLD) and native new (-DPENUMBRA_VERSION_NEW): plain C for
 *     replay. change(a, b) is (a) resp. (b), penumbra_execute(V) is a constant comparison, and
 *     penumbra_make_symbolic / penumbra_assume / penumbra_assert (and their klee_ spellings in
 *     <klee/klee.h>) are ordinary functions that penumbra's replay runtime defines: it fills
 *     each make_symbolic object, in order of creation, from a test file.
 *
 * Names: change(old, new) (also penumbra_change and klee_change), penumbra_execute(V) with
 * PENUMBRA_OLD / PENUMBRA_NEW, penumbra_make_symbolic(ptr, size, name), penumbra_assume(cond),
 * penumbra_assert(cond). The short names OLD and NEW are defined too unless
 * PENUMBRA_NO_SHORT_NAMES is defined before including this header.
 */
#ifndef PENUMBRA_H
#define PENUMBRA_H

#include <stddef.h>

#if defined(PENUMBRA_VERSION_OLD) && defined(PENUMBRA_VERSION_NEW)
#error "define at most one of PENUMBRA_VERSION_OLD and PENUMBRA_VERSION_NEW"
#endif

#define PENUMBRA_OLD 0
#define PENUMBRA_NEW 1

#ifndef PENUMBRA_NO_SHORT_NAMES
#define OLD PENUMBRA_OLD
#define NEW PENUMBRA_NEW
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Inputs and path constraints. In native builds the replay runtime defines these. */
void penumbra_make_symbolic(void *addr, size_t nbytes, const char *name);
void penumbra_assume(int cond);
void penumbra_assert(int cond);

#if defined(PENUMBRA_VERSION_OLD)

#define penumbra_change(old, new) (old)
#define penumbra_execute(version) ((version) == PENUMBRA_OLD)

#elif defined(PENUMBRA_VERSION_NEW)

#define penumbra_change(old, new) (new)
#define penumbra_execute(version) ((version) == PENUMBRA_NEW)

#else /* the symbolic build, compiled by penumbra */

/* Weak: a whole program built through a compiler wrapper (wllvm) is also linked natively,
 * where nothing defines these; its bitcode is what penumbra runs, and the native binary must
 * not run annotated code (the replay builds are the native versions). */
int __penumbra_execute(int version) __attribute__((weak));
#pragma weak penumbra_make_symbolic
#pragma weak penumbra_assume
#pragma weak penumbra_assert

/* Each operand runs in its own version only, as a penumbra_execute block (ShadowJPF+): the old
 * operand's side effects and errors (a write, a null dereference, a read past a buffer) are
 * the old version's alone, and likewise for the new one, exactly as in the two native builds.
 * The type is that of `1 ? (old) : (new)`. The statement expression keeps clang from threading
 * an enclosing `if` through the two operands: both meet again at the variable, which is where
 * the block ends (__extension__: no pedantic warning for it). Where both operands are pure (no
 * call, division or memory access but a whole variable's read), the frontend folds the block
 * into one IR `change`. */
#define penumbra_change(old, new)                                                                 \
  (__extension__({                                                                                \
    __typeof__(1 ? (old) : (new)) __penumbra_changed = __penumbra_execute(PENUMBRA_OLD) ? (old) : (new); \
    __penumbra_changed;                                                                           \
  }))
#define penumbra_execute(version) __penumbra_execute(version)

#endif

#define change(old, new) penumbra_change(old, new)
#define klee_change(old, new) penumbra_change(old, new)

#ifdef __cplusplus
}
#endif

#endif /* PENUMBRA_H */
