/* penumbra's atomics for musl (replaces arch/x86_64/atomic_arch.h): the engine runs one
 * thread, so atomic operations are plain ones; musl's src/internal/atomic.h derives the rest
 * (swap, fetch_add, inc, dec, store, ctz, clz...) from a_cas in C. */
#define a_cas a_cas
static inline int a_cas(volatile int *p, int t, int s)
{
	int old = *p;
	if (old == t) *p = s;
	return old;
}

#define a_cas_p a_cas_p
static inline void *a_cas_p(volatile void *p, void *t, void *s)
{
	void *old = *(void *volatile *)p;
	if (old == t) *(void *volatile *)p = s;
	return old;
}

#define a_barrier a_barrier
static inline void a_barrier(void) {}

#define a_spin a_spin
static inline void a_spin(void) {}

#define a_crash a_crash
static inline void a_crash(void) { __builtin_trap(); }
