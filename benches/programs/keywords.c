/* String parsing through the symbolic C library: a 6-byte command compared with strcmp
 * against a keyword table, then its argument digits parsed with isdigit. Thousands of paths. */
#include <penumbra.h>
#include <ctype.h>
#include <string.h>

static const char *keywords[] = {"get", "put", "del", "list"};

int main(void) {
    char cmd[5], arg[4];
    penumbra_make_symbolic(cmd, sizeof cmd, "cmd");
    penumbra_make_symbolic(arg, sizeof arg, "arg");
    cmd[4] = 0;
    int which = -1;
    for (int k = 0; k < 4; k++)
        if (strcmp(cmd, keywords[k]) == 0)
            which = k;
    int value = 0;
    for (int i = 0; i < 4 && isdigit((unsigned char)arg[i]); i++)
        value = value * 10 + (arg[i] - '0');
    return which * 16 + value % 16;
}
