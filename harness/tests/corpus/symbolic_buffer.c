// Symbolic inputs: a char buffer from klee_make_symbolic filled with str: and hex: values, then parsed.
// run: --input "buf=str:add 12 30"
// run: --input "buf=str:mul 7 -6"
// run: --input buf=hex:7375622035203900ff00000000000000
// run: --input buf=str:sixteen-chars-ok
// run:
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "klee/klee.h"

int main(void) {
    char buf[16];
    klee_make_symbolic(buf, sizeof buf, "buf");
    buf[sizeof buf - 1] = '\0';
    printf("input: '%s' (%d chars)\n", buf, (int)strlen(buf));
    char *p = buf;
    char op[4] = {0};
    int i = 0;
    while (*p && *p != ' ' && i < 3)
        op[i++] = *p++;
    char *end;
    long a = strtol(p, &end, 10);
    long b = strtol(end, &end, 10);
    long r;
    if (strcmp(op, "add") == 0)
        r = a + b;
    else if (strcmp(op, "sub") == 0)
        r = a - b;
    else if (strcmp(op, "mul") == 0)
        r = a * b;
    else {
        printf("unknown op '%s'\n", op);
        return 1;
    }
    printf("%s %ld %ld = %ld\n", op, a, b, r);
    return (int)(r & 0x7f);
}
