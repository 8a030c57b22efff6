// Exit status: main returning a value outside 0..255 is reported modulo 256 (here 300 -> 44).
#include <stdio.h>

int main(void) {
    int code = 0;
    for (int i = 1; i <= 24; i++)
        code += i;
    printf("code=%d\n", code);
    return code;
}
