// Structs: nested structs and arrays inside structs, member access through pointers, struct assignment.
#include <stdio.h>

struct point { int x, y; };
struct rect { struct point min, max; };
struct shape {
    char name[12];
    struct rect bounds;
    struct point vertices[4];
    int nverts;
};

static int area(const struct rect *r) {
    return (r->max.x - r->min.x) * (r->max.y - r->min.y);
}

static struct rect bounding(const struct shape *s) {
    struct rect r = {s->vertices[0], s->vertices[0]};
    for (int i = 1; i < s->nverts; i++) {
        const struct point *p = &s->vertices[i];
        if (p->x < r.min.x) r.min.x = p->x;
        if (p->y < r.min.y) r.min.y = p->y;
        if (p->x > r.max.x) r.max.x = p->x;
        if (p->y > r.max.y) r.max.y = p->y;
    }
    return r;
}

int main(void) {
    struct shape shapes[2] = {
        {"triangle", {{0, 0}, {0, 0}}, {{1, 1}, {5, 2}, {3, 7}}, 3},
        {"quad", {{0, 0}, {0, 0}}, {{-2, -3}, {4, -1}, {6, 5}, {-1, 4}}, 4},
    };
    int total = 0;
    for (int i = 0; i < 2; i++) {
        struct shape *s = &shapes[i];
        s->bounds = bounding(s);
        int a = area(&s->bounds);
        total += a;
        printf("%s: min=(%d,%d) max=(%d,%d) area=%d\n", s->name, s->bounds.min.x, s->bounds.min.y,
               s->bounds.max.x, s->bounds.max.y, a);
    }
    struct shape copy = shapes[1];
    copy.vertices[0].x = 100;
    copy.name[0] = 'Q';
    printf("copy: %s v0.x=%d, original: %s v0.x=%d\n", copy.name, copy.vertices[0].x, shapes[1].name,
           shapes[1].vertices[0].x);
    struct point *pp = &copy.bounds.max;
    pp->y += 10;
    printf("copy max.y=%d original max.y=%d\n", copy.bounds.max.y, shapes[1].bounds.max.y);
    return total % 256;
}
