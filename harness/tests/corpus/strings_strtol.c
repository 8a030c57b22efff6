// Strings: strtol with bases 0/2/8/10/16/36, end pointers, signs and whitespace.
#include <stdio.h>
#include <stdlib.h>

static void show(const char *s, int base) {
    char *end;
    long v = strtol(s, &end, base);
    printf("strtol(\"%s\", %d) = %ld, consumed %d, rest \"%s\"\n", s, base, v, (int)(end - s), end);
}

int main(void) {
    show("12345", 10);
    show("-42abc", 10);
    show("   +17", 10);
    show("0x1F", 16);
    show("0x1F", 0);
    show("1F", 16);
    show("0755", 0);
    show("0755", 8);
    show("1019", 8);
    show("101101", 2);
    show("zz", 36);
    show("Penumbra", 36);
    show("xyz", 10);
    show("", 10);
    show("-0", 10);
    show("9223372036854775807", 10);
    show("-9223372036854775807", 10);
    long total = 0;
    const char *list = "10 20 0x30 -5 077";
    char *p = (char *)list;
    for (;;) {
        char *end;
        long v = strtol(p, &end, 0);
        if (end == p)
            break;
        total += v;
        p = end;
    }
    printf("total = %ld\n", total);
    printf("no endptr: %ld\n", strtol("  -99z", NULL, 10));
    return (int)(total & 0x7f);
}
