/* kitchen_sink: many C constructs in one program, for the "lowers and verifies" and
 * determinism tests. It also builds and runs natively (see headers.rs). */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "penumbra.h"

struct point { int x, y; };
struct shape { const char *name; struct point pts[3]; long area; };
union word { uint32_t u; uint8_t b[4]; };
enum color { RED, GREEN = 5, BLUE };

static struct shape shapes[2] = { { "tri", { { 0, 0 }, { 4, 0 }, { 0, 3 } }, 6 }, { "dot", { { 1, 1 } }, 0 } };
static const char *color_names[] = { [RED] = "red", [GREEN] = "green", [BLUE] = "blue" };
static int counter;
static struct point *last = &shapes[1].pts[0];

static int cmp_int(const void *a, const void *b) { return *(const int *)a - *(const int *)b; }

static struct point mid(struct point a, struct point b) {
  struct point m = { (a.x + b.x) / 2, (a.y + b.y) / 2 };
  return m;
}

static long total(int n, ...) {
  va_list ap;
  va_start(ap, n);
  long s = 0;
  for (int i = 0; i < n; i++) s += va_arg(ap, long);
  va_end(ap);
  return s;
}

static int classify(int x) {
  switch (x & 7) {
  case 0: return 10;
  case 1: case 2: return 20;
  case 7: return -1;
  default: break;
  }
  return x > 100 ? 1 : 0;
}

static unsigned mix(unsigned h, const char *s) {
  while (*s) h = (h ^ (unsigned char)*s++) * 16777619u;
  return h;
}

int main(int argc, char **argv) {
  int values[5] = { 5, 3, 9, 1, 7 };
  qsort(values, 5, sizeof values[0], cmp_int);
  struct point m = mid(shapes[0].pts[1], shapes[0].pts[2]);
  union word w;
  w.u = 0x11223344u;
  char buf[32];
  snprintf(buf, sizeof buf, "%s-%d", color_names[BLUE], w.b[0]);
  int n = argc + 2;
  int vla[n];
  for (int i = 0; i < n; i++) vla[i] = classify(i * 3) + (int)strlen(buf);
  long t = total(3, 1L, 2L, (long)n);
  unsigned h = mix(2166136261u, argv[0]);
  int threshold = change(5, 10);
  if (values[0] > threshold || change(0, t > 5)) counter++;
  if (penumbra_execute(OLD)) counter += 100;
  int *p = change(&values[1], &values[2]);
  last->x += *p;
  int r = 0;
  do { r += vla[--n]; } while (n > 0);
  printf("%d %d %ld %u %d %d %s\n", m.x, m.y, t + shapes[0].area, h & 0xff, counter, r, buf);
  return (r + last->x) & 0x7f;
}
