// Output: puts, putchar, fprintf to stdout and stderr, printf with no conversions, return values.
#include <stdio.h>

int main(void) {
    int r1 = puts("puts adds a newline");
    int r2 = putchar('#');
    putchar('\n');
    fprintf(stdout, "fprintf to stdout: %d %s\n", 7, "ok");
    fprintf(stderr, "this goes to stderr: %d\n", 99);
    printf("plain text without conversions\n");
    printf("");
    puts("");
    for (char c = 'a'; c <= 'e'; c++)
        putchar(c);
    putchar('\n');
    int r3 = fprintf(stdout, "%c%c", 'h', 'i');
    putchar('\n');
    printf("escape chars: tab[\t] quote[\"] backslash[\\] octal[\101] hex[\x42]\n");
    printf("puts returned non-negative: %d, putchar returned %d, fprintf returned %d\n", r1 >= 0, r2, r3);
    return r2;
}
