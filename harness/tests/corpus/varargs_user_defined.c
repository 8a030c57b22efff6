// Varargs: user-defined variadic functions with va_list (sum of ints, mixed long/pointer arguments, va_copy).
#include <stdio.h>
#include <stdarg.h>

static int sum_ints(int count, ...) {
    va_list ap;
    va_start(ap, count);
    int s = 0;
    for (int i = 0; i < count; i++)
        s += va_arg(ap, int);
    va_end(ap);
    return s;
}

static long describe(const char *fmt, ...) {
    va_list ap, copy;
    va_start(ap, fmt);
    va_copy(copy, ap);
    long total = 0;
    for (const char *f = fmt; *f; f++) {
        if (*f == 'i')
            total += va_arg(ap, int);
        else if (*f == 'l')
            total += va_arg(ap, long);
        else if (*f == 's')
            printf("string arg: %s\n", va_arg(ap, const char *));
    }
    va_end(ap);
    int first = *fmt == 'i' ? va_arg(copy, int) : -1;
    va_end(copy);
    printf("first int via va_copy: %d\n", first);
    return total;
}

int main(void) {
    printf("sum_ints(0)=%d\n", sum_ints(0));
    printf("sum_ints(3)=%d\n", sum_ints(3, 10, -20, 30));
    printf("sum_ints(8)=%d\n", sum_ints(8, 1, 2, 3, 4, 5, 6, 7, 8));
    long t = describe("ilsil", 5, 10000000000L, "hello", -7, -3L);
    printf("describe total=%ld\n", t);
    return (int)(t % 100);
}
