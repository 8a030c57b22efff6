// Exit sequence: atexit handlers (last registered first), then the destructors, then stdout flushed; main's status stands.
#include <stdio.h>
#include <stdlib.h>

static int stage;

static void first(void) { printf("first handler (stage %d)\n", stage++); }

static void second(void) { printf("second handler (stage %d)\n", stage++); }

__attribute__((constructor)) static void setup(void) {
    atexit(first);
    stage = 1;
}

__attribute__((destructor)) static void finish(void) { printf("destructor (stage %d)\n", stage); }

int main(void) {
    printf("main (stage %d)\n", stage++);
    atexit(second);
    return 3;
}
