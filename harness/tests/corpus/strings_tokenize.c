// Strings: tokenising with strchr/strspn-style loops, counting words and fields.
#include <stdio.h>
#include <string.h>

static int is_delim(char c, const char *delims) {
    return c != '\0' && strchr(delims, c) != NULL;
}

/* Splits `line` in place; stores token pointers; returns the count. */
static int tokenize(char *line, const char *delims, char **tokens, int max) {
    int n = 0;
    char *p = line;
    while (*p) {
        while (is_delim(*p, delims))
            p++;
        if (!*p)
            break;
        if (n < max)
            tokens[n] = p;
        n++;
        while (*p && !is_delim(*p, delims))
            p++;
        if (*p)
            *p++ = '\0';
    }
    return n;
}

int main(void) {
    char line[] = "  the quick,brown  fox;;jumps over,,the lazy dog  ";
    char *tokens[16];
    int n = tokenize(line, " ,;", tokens, 16);
    printf("tokens: %d\n", n);
    int longest = 0;
    for (int i = 0; i < n; i++) {
        int len = (int)strlen(tokens[i]);
        printf("[%d] '%s' len=%d\n", i, tokens[i], len);
        if (len > (int)strlen(tokens[longest]))
            longest = i;
    }
    printf("longest: %s\n", tokens[longest]);

    char csv[] = "name=alice;age=31;city=paris";
    char *fields[8];
    int nf = tokenize(csv, ";", fields, 8);
    for (int i = 0; i < nf; i++) {
        char *eq = strchr(fields[i], '=');
        if (eq) {
            *eq = '\0';
            printf("key=%s value=%s\n", fields[i], eq + 1);
        }
    }
    char empty[] = ";;;";
    printf("empty tokens: %d\n", tokenize(empty, ";", fields, 8));
    return n;
}
