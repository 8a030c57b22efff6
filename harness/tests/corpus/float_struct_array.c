// Floating point: floats, doubles and long doubles in structs and arrays (layout, copies, by-value arguments, struct results returned in registers, 2-D arrays).
#include <stdio.h>
#include <string.h>
#include <stddef.h>
struct point { double x, y; };
struct mixed { char tag; float f; double d; long double l; short s; };
static struct point add(struct point a, struct point b) { struct point r = {a.x + b.x, a.y + b.y}; return r; }
static struct point scale(struct point p, double k) { p.x *= k; p.y *= k; return p; }
static double dot(const struct point *a, const struct point *b) { return a->x * b->x + a->y * b->y; }
static struct mixed make(int i) { struct mixed m = {(char)('a' + i), i * 0.5f, i / 3.0, i / 7.0L, (short)(i * 100)}; return m; }
int main(void) {
    printf("%zu %zu %zu %zu %zu %zu\n", sizeof(struct mixed), offsetof(struct mixed, f), offsetof(struct mixed, d),
           offsetof(struct mixed, l), offsetof(struct mixed, s), sizeof(long double));
    struct point p[4] = {{1, 2}, {0.5, -0.25}, {1e10, 1e-10}, {3, 4}};
    struct point acc = {0, 0};
    for (int i = 0; i < 4; i++) acc = add(acc, scale(p[i], i + 1));
    printf("%.17g %.17g %.17g\n", acc.x, acc.y, dot(&p[0], &p[3]));
    struct mixed ms[3];
    for (int i = 0; i < 3; i++) ms[i] = make(i + 1);
    struct mixed copy;
    memcpy(&copy, &ms[2], sizeof copy);
    for (int i = 0; i < 3; i++) printf("%c %g %.17g %.20Lg %d\n", ms[i].tag, ms[i].f, ms[i].d, ms[i].l, ms[i].s);
    printf("%c %.20Lg\n", copy.tag, copy.l);
    double grid[3][4];
    for (int r = 0; r < 3; r++) for (int c = 0; c < 4; c++) grid[r][c] = (r + 1) / (double)(c + 1);
    double total = 0;
    for (int r = 0; r < 3; r++) for (int c = 0; c < 4; c++) total += grid[r][c];
    float fa[5] = {1.1f, 2.2f, 3.3f};
    printf("%.17g %g %g\n", total, fa[2], fa[4]);
    return (int)total;
}
