/* penumbra's symbolic C library: the <string.h>, <stdlib.h> and <stdio.h> functions that loop
 * over bytes, written in C so that the engine executes them like user code and forks on
 * symbolic bytes exactly where the C code branches (strlen of a symbolic buffer has one path
 * per length), as KLEE does by linking uclibc.
 *
 * Each function reads and writes the bytes, in the order, that the concrete interpreter's model
 * (engine/src/concrete/libc/) does, so an error found here replays as the same error there.
 * Copies go through memmove and whole-range checks through __penumbra_check_read, which the
 * engine implements natively (one bounds check over the whole range, as AddressSanitizer's
 * interceptors do).
 *
 * Rules for this file: no global variables or string literals (the program's globals must keep
 * the addresses they have in a concrete run), and every helper's name starts with
 * __penumbra_libc_ (helpers are linked into the user's module by name).
 */

typedef unsigned long size_t;

void *malloc(size_t size);
void *memmove(void *dst, const void *src, size_t n);
void *memset(void *dst, int c, size_t n);
int fgetc(void *stream);
int *__errno_location(void);
/* Native: a bounds check of n bytes at p, as one read access (n may be 0). */
void __penumbra_check_read(const void *p, size_t n);
/* Native: whether the FILE * is stdin (0 for stdout and stderr; other streams are unsupported). */
int __penumbra_is_stdin(void *stream);

size_t strlen(const char *s) {
  size_t n = 0;
  while (s[n])
    n++;
  return n;
}

size_t strnlen(const char *s, size_t max) {
  size_t n = 0;
  while (n < max && s[n])
    n++;
  return n;
}

int strncmp(const char *p, const char *q, size_t max) {
  const unsigned char *a = (const unsigned char *)p;
  const unsigned char *b = (const unsigned char *)q;
  for (size_t i = 0; i < max; i++) {
    unsigned char x = a[i];
    unsigned char y = b[i];
    if (x != y)
      return (int)x - (int)y;
    if (x == 0)
      return 0;
  }
  return 0;
}

int strcmp(const char *p, const char *q) {
  const unsigned char *a = (const unsigned char *)p;
  const unsigned char *b = (const unsigned char *)q;
  for (size_t i = 0;; i++) {
    unsigned char x = a[i];
    unsigned char y = b[i];
    if (x != y)
      return (int)x - (int)y;
    if (x == 0)
      return 0;
  }
}

char *strcpy(char *dst, const char *src) {
  size_t n = strlen(src);
  memmove(dst, src, n + 1);
  return dst;
}

char *strncpy(char *dst, const char *src, size_t n) {
  size_t len = strnlen(src, n);
  __penumbra_check_read(src, len);
  memmove(dst, src, len);
  memset(dst + len, 0, n - len);
  return dst;
}

char *strcat(char *dst, const char *src) {
  size_t dl = strlen(dst);
  size_t sl = strlen(src);
  memmove(dst + dl, src, sl + 1);
  return dst;
}

char *strncat(char *dst, const char *src, size_t n) {
  size_t dl = strlen(dst);
  size_t sl = strnlen(src, n);
  memmove(dst + dl, src, sl);
  dst[dl + sl] = 0;
  return dst;
}

char *strchr(const char *s, int c) {
  char ch = (char)c;
  for (size_t i = 0;; i++) {
    if (s[i] == ch)
      return (char *)s + i;
    if (s[i] == 0)
      return 0;
  }
}

char *strrchr(const char *s, int c) {
  char ch = (char)c;
  size_t n = strlen(s);
  __penumbra_check_read(s, n + 1);
  for (size_t i = n + 1; i > 0; i--)
    if (s[i - 1] == ch)
      return (char *)s + i - 1;
  return 0;
}

int memcmp(const void *p, const void *q, size_t n) {
  const unsigned char *a = (const unsigned char *)p;
  const unsigned char *b = (const unsigned char *)q;
  __penumbra_check_read(p, n);
  __penumbra_check_read(q, n);
  for (size_t i = 0; i < n; i++)
    if (a[i] != b[i])
      return (int)a[i] - (int)b[i];
  return 0;
}

void *memchr(const void *s, int c, size_t n) {
  const unsigned char *p = (const unsigned char *)s;
  unsigned char ch = (unsigned char)c;
  for (size_t i = 0; i < n; i++)
    if (p[i] == ch)
      return (void *)(p + i);
  return 0;
}

char *strstr(const char *h, const char *needle) {
  size_t hl = strlen(h);
  size_t nl = strlen(needle);
  if (nl == 0)
    return (char *)h;
  for (size_t i = 0; i + nl <= hl; i++) {
    size_t j = 0;
    while (j < nl && h[i + j] == needle[j])
      j++;
    if (j == nl)
      return (char *)h + i;
  }
  return 0;
}

char *strdup(const char *s) {
  size_t len = strlen(s);
  char *p = (char *)malloc(len + 1);
  if (p) {
    memmove(p, s, len);
    p[len] = 0;
  }
  return p;
}

char *strndup(const char *s, size_t n) {
  size_t len = strnlen(s, n);
  __penumbra_check_read(s, len);
  char *p = (char *)malloc(len + 1);
  if (p) {
    memmove(p, s, len);
    p[len] = 0;
  }
  return p;
}

static int __penumbra_libc_in_set(const char *set, size_t n, char c) {
  for (size_t j = 0; j < n; j++)
    if (set[j] == c)
      return 1;
  return 0;
}

size_t strspn(const char *s, const char *set) {
  size_t n = strlen(set);
  for (size_t i = 0;; i++) {
    char c = s[i];
    if (c == 0 || !__penumbra_libc_in_set(set, n, c))
      return i;
  }
}

size_t strcspn(const char *s, const char *set) {
  size_t n = strlen(set);
  for (size_t i = 0;; i++) {
    char c = s[i];
    if (c == 0 || __penumbra_libc_in_set(set, n, c))
      return i;
  }
}

/* ----- number parsing: glibc's strtol for a 64-bit long (see engine/src/libc/strtol.rs) ---- */

static unsigned __penumbra_libc_digit(unsigned char b) {
  if (b >= '0' && b <= '9')
    return b - '0';
  if (b >= 'a' && b <= 'z')
    return b - 'a' + 10;
  if (b >= 'A' && b <= 'Z')
    return b - 'A' + 10;
  return 99;
}

static int __penumbra_libc_space(unsigned char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == 11 || c == 12 || c == '\r';
}

static unsigned long __penumbra_libc_parse(const char *s, char **endptr, int base, int is_signed) {
  const unsigned char *p = (const unsigned char *)s;
  if (base != 0 && (base < 2 || base > 36)) {
    if (endptr)
      *endptr = (char *)s;
    *__errno_location() = 22; /* EINVAL */
    return 0;
  }
  unsigned b = (unsigned)base;
  size_t i = 0;
  unsigned char c = p[i];
  while (__penumbra_libc_space(c))
    c = p[++i];
  int negative = c == '-';
  if (c == '-' || c == '+')
    c = p[++i];
  if ((b == 0 || b == 16) && c == '0') {
    unsigned char x = p[i + 1];
    if (x == 'x' || x == 'X') {
      b = 16;
      if (__penumbra_libc_digit(p[i + 2]) < 16) {
        i += 2;
        c = p[i];
      }
    } else if (b == 0) {
      b = 8;
    }
  } else if (b == 0) {
    b = 10;
  }
  unsigned long limit = !is_signed ? ~0UL : negative ? (1UL << 63) : ~0UL >> 1;
  unsigned long cutoff = limit / b;
  unsigned long cutlim = limit % b;
  size_t start = i;
  unsigned long value = 0;
  int overflow = 0;
  for (;;) {
    unsigned d = __penumbra_libc_digit(c);
    if (d >= b)
      break;
    if (value > cutoff || (value == cutoff && d > cutlim))
      overflow = 1;
    else
      value = value * b + d;
    c = p[++i];
  }
  if (i == start) {
    if (endptr)
      *endptr = (char *)s;
    return 0;
  }
  if (endptr)
    *endptr = (char *)s + i;
  if (overflow) {
    *__errno_location() = 34; /* ERANGE */
    if (!is_signed)
      return ~0UL;
    return negative ? (1UL << 63) : ~0UL >> 1;
  }
  return negative ? -value : value;
}

long strtol(const char *s, char **endptr, int base) {
  return (long)__penumbra_libc_parse(s, endptr, base, 1);
}

long long strtoll(const char *s, char **endptr, int base) {
  return (long long)__penumbra_libc_parse(s, endptr, base, 1);
}

unsigned long strtoul(const char *s, char **endptr, int base) {
  return __penumbra_libc_parse(s, endptr, base, 0);
}

unsigned long long strtoull(const char *s, char **endptr, int base) {
  return __penumbra_libc_parse(s, endptr, base, 0);
}

int atoi(const char *s) {
  return (int)__penumbra_libc_parse(s, 0, 10, 1);
}

long atol(const char *s) {
  return (long)__penumbra_libc_parse(s, 0, 10, 1);
}

long long atoll(const char *s) {
  return (long long)__penumbra_libc_parse(s, 0, 10, 1);
}

/* ----- <stdio.h> input ------------------------------------------------------------------- */

char *fgets(char *buf, int n, void *stream) {
  if (!__penumbra_is_stdin(stream) || n <= 0)
    return 0;
  int i = 0;
  while (i + 1 < n) {
    int c = fgetc(stream);
    if (c == -1)
      break;
    buf[i++] = (char)c;
    if (c == '\n')
      break;
  }
  if (i == 0 && n > 1)
    return 0;
  buf[i] = 0;
  return buf;
}
