/* penumbra.h: annotations for shadow symbolic execution with penumbra.
 *
 * A unified program merges the old and the new version of a patch and marks every edit with
 * change(old, new). The same file builds three ways:
 *
 *   - symbolic (no macro defined): what `penumbra` compiles. change() and the other
 *     annotations become calls of declared functions that penumbra's frontend turns into IR
 *     instructions; nothing here needs a definition at link time.
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

/* One declared function per width: the frontend lowers each call into an IR `change`. */
signed char __penumbra_change_i8(signed char old_value, signed char new_value);
short __penumbra_change_i16(short old_value, short new_value);
int __penumbra_change_i32(int old_value, int new_value);
long long __penumbra_change_i64(long long old_value, long long new_value);
void *__penumbra_change_ptr(const volatile void *old_value, const volatile void *new_value);
/* Floating point is not modelled: these exist so that change() on a float compiles, and the
 * frontend reports it as unsupported where it is used. */
float __penumbra_change_f32(float old_value, float new_value);
double __penumbra_change_f64(double old_value, double new_value);
long double __penumbra_change_f80(long double old_value, long double new_value);
int __penumbra_execute(int version);

/* The type of change(old, new) is the type of `1 ? (old) : (new)`: the usual arithmetic
 * conversions for numbers (so change(x > 5, x > 10) is an int), the composite type for
 * pointers. _Generic picks the function of that width; the cast gives the result that type
 * back (a pointer comes back with its pointee type, not as void *). */
#define __penumbra_change_fn(e)                                                              \
  _Generic((e),                                                                              \
      _Bool: __penumbra_change_i8, char: __penumbra_change_i8,                               \
      signed char: __penumbra_change_i8, unsigned char: __penumbra_change_i8,                \
      short: __penumbra_change_i16, unsigned short: __penumbra_change_i16,                   \
      int: __penumbra_change_i32, unsigned int: __penumbra_change_i32,                       \
      long: __penumbra_change_i64, unsigned long: __penumbra_change_i64,                     \
      long long: __penumbra_change_i64, unsigned long long: __penumbra_change_i64,           \
      float: __penumbra_change_f32, double: __penumbra_change_f64,                           \
      long double: __penumbra_change_f80, default: __penumbra_change_ptr)
#define penumbra_change(old, new)                                                            \
  ((__typeof__(1 ? (old) : (new)))__penumbra_change_fn(1 ? (old) : (new))((old), (new)))
#define penumbra_execute(version) __penumbra_execute(version)

#endif

#define change(old, new) penumbra_change(old, new)
#define klee_change(old, new) penumbra_change(old, new)

#ifdef __cplusplus
}
#endif

#endif /* PENUMBRA_H */
