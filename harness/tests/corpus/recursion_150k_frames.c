// Recursion: 150,000 frames deep, which the native 8 MiB stack holds (a frame-count limit of 100,000 called it a stack overflow).
#include <stdio.h>

static int depth_of(int n) { return n == 0 ? 0 : 1 + depth_of(n - 1); }

int main(void) {
    printf("depth=%d\n", depth_of(150000));
    return 0;
}
