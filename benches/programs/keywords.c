/* String parsing through the symbolic C library: a 5-byte command compared with strcmp
 * against a keyword table, then a 4-byte argument parsed with atoi (spaces, sign, digits).
 * Thousands of paths, most of them through strcmp and strtol's C code. */
#include <penumbra.h>
#include <stdlib.h>
#include <string.h>

static const char *keywords[] = {"get", "put", "del", "list"};

int main(void) {
    char cmd[5], arg[4];
    penumbra_make_symbolic(cmd, sizeof cmd, "cmd");
    penumbra_make_symbolic(arg, sizeof arg, "arg");
    cmd[4] = 0;
    arg[3] = 0;
    int which = -1;
    for (int k = 0; k < 4; k++)
        if (strcmp(cmd, keywords[k]) == 0)
            which = k;
    int value = atoi(arg);
    if (which < 0)
        return value > 100;
    return which * 4 + (value > 100) + 2 * (value < 0);
}
