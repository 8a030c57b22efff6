// argc/argv: sums numeric arguments with strtol (any base), rejects junk; the exit status is the count.
// run: -- 3 -4 0x10 010 junk 12abc
// run: -- 100
// run:
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char *argv[]) {
    long sum = 0;
    int good = 0, bad = 0;
    for (int i = 1; i < argc; i++) {
        char *end;
        long v = strtol(argv[i], &end, 0);
        if (*end != '\0' || end == argv[i]) {
            printf("arg %d: '%s' is not a number (stopped at '%s')\n", i, argv[i], end);
            bad++;
            continue;
        }
        printf("arg %d: %ld\n", i, v);
        sum += v;
        good++;
    }
    printf("sum=%ld good=%d bad=%d\n", sum, good, bad);
    if (argc == 1) {
        printf("usage: argv_sum NUMBER...\n");
        return 64;
    }
    return good;
}
