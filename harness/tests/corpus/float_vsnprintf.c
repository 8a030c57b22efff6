// Floating point: musl's vsnprintf, snprintf and sprintf formatting doubles and long doubles from a program's variadic wrapper, with truncation to the buffer size.
// libc: musl
#include <stdio.h>
#include <stdarg.h>
static int say(char *buf, size_t n, const char *fmt, ...) {
    va_list ap; va_start(ap, fmt);
    int r = vsnprintf(buf, n, fmt, ap);
    va_end(ap);
    return r;
}
int main(void) {
    char buf[64];
    int r = say(buf, sizeof buf, "%d %.3f %Lg %e %s", 7, 2.0 / 3.0, 2.5L, 1e-5, "end");
    printf("[%s] %d\n", buf, r);
    r = say(buf, 8, "%f", 3.14159);
    printf("[%s] %d\n", buf, r);
    float f = 1.25f;
    r = snprintf(buf, sizeof buf, "%g %5.1f %+.2Le", f, f * 2, -1.0L / 3);
    printf("[%s] %d\n", buf, r);
    r = sprintf(buf, "%.0f|%#.0e|%G", 0.5, 1.5, 1e-10);
    printf("[%s] %d\n", buf, r);
    return r;
}
