// Exit status: exit() called deep inside nested calls stops the program immediately with that status.
#include <stdio.h>
#include <stdlib.h>

static int depth;

static void check(int v) {
    if (v > 3) {
        printf("value %d too large at depth %d, exiting\n", v, depth);
        exit(17);
    }
}

static int walk(int v) {
    depth++;
    check(v);
    printf("walk(%d)\n", v);
    int r = walk(v + 1);
    printf("never printed %d\n", r);
    return r;
}

int main(void) {
    printf("start\n");
    walk(0);
    printf("not reached\n");
    return 0;
}
