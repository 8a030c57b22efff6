// argc/argv: a getopt-like option parser (flags, bundled flags, options with values, "--" terminator).
// run: -- -v -n 3 --name=penumbra file1 -- -notanoption
// run: -- -vq -n7 input.c
// run: -- -x
// run: -- --help
#include <stdio.h>
#include <string.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    int verbose = 0, quiet = 0, count = 1;
    const char *name = "anonymous";
    int positional = 0;
    int i = 1;
    for (; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--") == 0) {
            i++;
            break;
        }
        if (strncmp(a, "--name=", 7) == 0) {
            name = a + 7;
        } else if (strcmp(a, "--help") == 0) {
            printf("usage: %s [-vq] [-n N] [--name=NAME] FILE...\n", "argv_options");
            return 0;
        } else if (a[0] == '-' && a[1] != '\0') {
            for (const char *f = a + 1; *f; f++) {
                if (*f == 'v') {
                    verbose++;
                } else if (*f == 'q') {
                    quiet = 1;
                } else if (*f == 'n') {
                    const char *val = f[1] ? f + 1 : (i + 1 < argc ? argv[++i] : "1");
                    count = atoi(val);
                    break;
                } else {
                    printf("unknown option -%c\n", *f);
                    return 2;
                }
            }
        } else {
            printf("positional: %s\n", a);
            positional++;
        }
    }
    for (; i < argc; i++) {
        printf("positional after --: %s\n", argv[i]);
        positional++;
    }
    printf("verbose=%d quiet=%d count=%d name=%s positional=%d\n", verbose, quiet, count, name, positional);
    for (int k = 0; k < count && !quiet; k++)
        printf("hello %d from %s\n", k, name);
    return positional * 10 + verbose;
}
