/* penumbra's thread pointer for musl (replaces arch/x86_64/pthread_arch.h): the one thread's
 * descriptor is a global of penumbra_start.c rather than what %fs points to. */
extern struct __pthread __penumbra_thread;

static inline uintptr_t __get_tp(void) { return (uintptr_t)&__penumbra_thread; }

#define MC_PC gregs[REG_RIP]
