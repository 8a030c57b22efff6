/* The start of a program linked with musl under penumbra: what musl's __libc_start_main and
 * __init_libc do on a real process, without the auxiliary vector, TLS set-up or the kernel.
 * The engine enters __penumbra_libc_start(argc, argv, envp) instead of main when a program
 * defines it; main's return goes through exit, so atexit handlers and the program's
 * destructors run and stdio is flushed.
 * Compiled with musl's internal headers (scripts/build-musl.sh). */
#include <stdlib.h>
#include <unistd.h>
#include "pthread_impl.h"
#include "libc.h"

/* The one thread's descriptor: __get_tp() points here (arch/pthread_arch.h). */
struct pthread __penumbra_thread;

/* No auxiliary vector: an empty one (AT_NULL). */
static size_t no_auxv[2];

/* No .init_array or .fini_array sections (the engine runs constructors itself): each table's
 * start and end are one address, so musl's loops over them run no function. */
static void (*const no_functions[1])(void) = { 0 };
extern void (*const __init_array_start)(void) __attribute__((alias("no_functions")));
extern void (*const __init_array_end)(void) __attribute__((alias("no_functions")));
extern void (*const __fini_array_start)(void) __attribute__((alias("no_functions")));
extern void (*const __fini_array_end)(void) __attribute__((alias("no_functions")));

/* The program's destructors, which the engine knows (it lowers .fini_array's table, as it runs
 * the constructors itself): the address of the i-th, or null after the last. */
void (*__penumbra_destructor(size_t i))(void);

/* musl's exit runs the destructors here, after the atexit handlers and before stdio is
 * flushed, as its own __libc_exit_fini (a weak definition this one replaces) runs .fini_array
 * natively. */
void __libc_exit_fini(void)
{
	void (*dtor)(void);
	for (size_t i = 0; (dtor = __penumbra_destructor(i)); i++)
		dtor();
}

/* musl's internal allocator entry points, served by the engine's allocator (src/malloc is
 * not built: the engine's malloc keeps every block's bounds). */
void *__libc_malloc(size_t n) { return malloc(n); }
void *__libc_calloc(size_t m, size_t n) { return calloc(m, n); }
void __libc_free(void *p) { free(p); }

void __penumbra_posix_init(void);

/* Unprototyped: the program's main may take 0, 2 or 3 parameters. */
int main();

void __penumbra_libc_start(int argc, char **argv, char **envp)
{
	struct pthread *self = &__penumbra_thread;
	self->self = self;
	self->prev = self->next = self;
	self->detach_state = DT_JOINABLE;
	self->locale = &libc.global_locale;
	self->robust_list.head = &self->robust_list.head;
	self->tid = __syscall(SYS_gettid);

	__environ = envp;
	libc.auxv = no_auxv;
	libc.page_size = 4096;
	char *name = argv[0] ? argv[0] : "";
	__progname = __progname_full = name;
	for (char *p = name; *p; p++)
		if (*p == '/') __progname = p + 1;

	__penumbra_posix_init();
	exit(main(argc, argv, envp));
}
