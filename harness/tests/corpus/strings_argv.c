// Strings/argv: joins the program arguments, counts characters and finds the longest argument.
// run: -- hello shadow world 42
// run: -- single
// run:
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv) {
    char joined[128];
    joined[0] = '\0';
    int chars = 0, longest = 0;
    for (int i = 1; i < argc; i++) {
        int len = (int)strlen(argv[i]);
        chars += len;
        if (len > (int)strlen(argv[longest == 0 ? i : longest]))
            longest = i;
        if (longest == 0)
            longest = i;
        if (strlen(joined) + len + 2 < sizeof joined) {
            if (i > 1)
                strcpy(joined + strlen(joined), "-");
            strcpy(joined + strlen(joined), argv[i]);
        }
    }
    printf("argc=%d\n", argc);
    printf("joined=%s\n", joined);
    printf("chars=%d\n", chars);
    if (longest)
        printf("longest=%s\n", argv[longest]);
    printf("argv[argc] is null: %d\n", argv[argc] == NULL);
    return argc - 1;
}
