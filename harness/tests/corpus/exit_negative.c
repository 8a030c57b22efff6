// Exit status: exit(-1) is reported as 255, like a native process.
#include <stdio.h>
#include <stdlib.h>

int main(void) {
    printf("exiting with -1\n");
    exit(-1);
}
