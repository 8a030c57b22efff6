/* penumbra's replay runtime: linked into the native old and new builds of a unified program.
 *
 * It defines what penumbra.h (and klee/klee.h) declare for native builds (and, for a program
 * given as bitcode, the symbolic build's __penumbra_execute, answered for the build's version):
 *   - penumbra_make_symbolic / klee_make_symbolic fill each object, in order of creation, from
 *     the .ktest file named by the environment variable KTEST_FILE (as KLEE's replay library
 *     does; penumbra passes a file holding only the program's own objects, argv and stdin
 *     having been given to the process directly);
 *   - penumbra_assume / klee_assume check that the test satisfies the assumption;
 *   - penumbra_assert / klee_assert abort with a message and a stack trace when the condition
 *     is false, like a sanitizer report.
 *
 * A problem of the replay itself (no test file, an object missing or of the wrong size, a
 * violated assumption) is not a behaviour of the program: it is reported on stderr as
 * "penumbra-replay: ..." with exit status 125, which penumbra reads as "cannot replay".
 *
 * Before replaying, penumbra runs each build once with PENUMBRA_REPLAY_PROBE set: the
 * constructor below then says "started" and exits, which proves that the sanitizers' runtime
 * (initialised before any constructor) could start in this environment.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#if defined(__has_include) && !defined(PENUMBRA_NO_SANITIZERS)
#if __has_include(<sanitizer/common_interface_defs.h>)
#include <sanitizer/common_interface_defs.h>
#define PENUMBRA_HAVE_STACK_TRACE 1
#endif
#endif

#define REPLAY_FAILED 125

/* What this file was compiled with, in the executable's symbols: replay reads them back
 * (harness/src/replay/builds.rs) to tell which sanitizers a build has, so that a compiler that
 * drops one (a wrapper named clang-15) is noticed rather than trusted. The runtime is compiled
 * in the link command, with the program's flags. */
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
__attribute__((used)) const char penumbra_replay_asan = 1;
#endif
#if __has_feature(undefined_behavior_sanitizer)
__attribute__((used)) const char penumbra_replay_ubsan = 1;
#endif
#endif

/* A unified program given as bitcode or IR was compiled for penumbra (no version macro): its
 * change() and penumbra_execute() call __penumbra_execute (weak there), which each native
 * build answers for its own version. Compiled from C with a version macro, a program never
 * calls it. */
#if defined(PENUMBRA_VERSION_OLD)
int __penumbra_execute(int version) { return version == 0; }
#else
int __penumbra_execute(int version) { return version == 1; }
#endif

/* The test file's path, taken from KTEST_FILE before the program runs. */
static char *ktest_path;

/* First of the constructors (priority 101): the probe; then replay's own variables leave the
 * environment, so the program sees the test's environment alone. (The sanitizers have read
 * their options before any constructor ran, and find their symbolizer through the process's
 * initial environment, /proc/self/environ, which keeps PATH.) */
__attribute__((constructor(101))) static void penumbra_replay_start(void) {
  if (getenv("PENUMBRA_REPLAY_PROBE")) {
    fputs("penumbra-replay: started\n", stderr);
    fflush(stderr);
    _exit(0);
  }
  const char *path = getenv("KTEST_FILE");
  ktest_path = path ? strdup(path) : NULL;
  const char *own[] = {"KTEST_FILE", "ASAN_OPTIONS", "UBSAN_OPTIONS", "PATH"};
  for (size_t i = 0; i < sizeof own / sizeof own[0]; i++)
    unsetenv(own[i]);
}

static unsigned char *test_data;
static size_t test_size;
static size_t test_pos;
static uint32_t objects_left;
static int loaded;

static void replay_failure(const char *what, const char *name) {
  fprintf(stderr, "penumbra-replay: %s%s%s%s\n", what, name ? " (\"" : "", name ? name : "", name ? "\")" : "");
  fflush(stderr);
  _Exit(REPLAY_FAILED);
}

static uint32_t read_u32(void) {
  if (test_size - test_pos < 4)
    replay_failure("truncated test file", NULL);
  const unsigned char *p = test_data + test_pos;
  test_pos += 4;
  return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | (uint32_t)p[3];
}

/* Skips a (length, bytes) field and returns where its bytes start. */
static const unsigned char *read_field(uint32_t *len) {
  *len = read_u32();
  if (test_size - test_pos < *len)
    replay_failure("truncated test file", NULL);
  const unsigned char *p = test_data + test_pos;
  test_pos += *len;
  return p;
}

/* Reads KTEST_FILE and positions the reader at the first object. */
static void load_test(void) {
  loaded = 1;
  const char *path = ktest_path;
  if (!path)
    replay_failure("KTEST_FILE is not set: it names the .ktest file whose objects feed make_symbolic", NULL);
  FILE *f = fopen(path, "rb");
  if (!f)
    replay_failure("cannot open the test file", path);
  size_t cap = 4096;
  test_data = malloc(cap);
  size_t n;
  while (test_data && (n = fread(test_data + test_size, 1, cap - test_size, f)) > 0) {
    test_size += n;
    if (test_size == cap)
      test_data = realloc(test_data, cap *= 2);
  }
  fclose(f);
  if (!test_data)
    replay_failure("out of memory reading the test file", path);
  if (test_size < 5 || (memcmp(test_data, "KTEST", 5) != 0 && memcmp(test_data, "BOUT\n", 5) != 0))
    replay_failure("not a .ktest file", path);
  test_pos = 5;
  uint32_t version = read_u32();
  uint32_t args = read_u32();
  for (uint32_t i = 0; i < args; i++) {
    uint32_t len;
    read_field(&len);
  }
  if (version >= 2) {
    read_u32(); /* sym_argvs */
    read_u32(); /* sym_argv_len */
  }
  objects_left = read_u32();
}

void penumbra_make_symbolic(void *addr, size_t nbytes, const char *name) {
  if (!loaded)
    load_test();
  if (objects_left == 0)
    replay_failure("the test has no object left for make_symbolic", name);
  objects_left--;
  uint32_t name_len, size;
  read_field(&name_len);
  const unsigned char *bytes = read_field(&size);
  if (size != nbytes) {
    char msg[160];
    snprintf(msg, sizeof msg, "the test's object has %u bytes where make_symbolic asks for %zu", size, nbytes);
    replay_failure(msg, name);
  }
  memcpy(addr, bytes, nbytes);
}

void penumbra_assume(int cond) {
  if (!cond)
    replay_failure("the test violates an assumption", NULL);
}

void penumbra_assert(int cond) {
  if (!cond) {
    fprintf(stderr, "penumbra-replay: assertion failed\n");
#ifdef PENUMBRA_HAVE_STACK_TRACE
    __sanitizer_print_stack_trace();
#endif
    fflush(stderr);
    abort();
  }
}

void klee_make_symbolic(void *addr, size_t nbytes, const char *name) { penumbra_make_symbolic(addr, nbytes, name); }
void klee_assume(uintptr_t cond) { penumbra_assume(cond != 0); }
void klee_assert(int cond) { penumbra_assert(cond); }
