// Switch: switching on characters to build a small lexer that counts token kinds.
#include <stdio.h>

enum tok { T_IDENT, T_NUM, T_OP, T_PUNCT, T_SPACE, T_STRING, T_OTHER, T_COUNT };
static const char *names[T_COUNT] = {"ident", "num", "op", "punct", "space", "string", "other"};

static enum tok kind(char c) {
    switch (c) {
    case 'a' ... 'z':
    case 'A' ... 'Z':
    case '_':
        return T_IDENT;
    case '0': case '1': case '2': case '3': case '4':
    case '5': case '6': case '7': case '8': case '9':
        return T_NUM;
    case '+': case '-': case '*': case '/': case '=': case '<': case '>': case '!':
        return T_OP;
    case '(': case ')': case '{': case '}': case ';': case ',':
        return T_PUNCT;
    case ' ': case '\t': case '\n':
        return T_SPACE;
    case '"':
        return T_STRING;
    default:
        return T_OTHER;
    }
}

int main(void) {
    const char *src = "int main(void) {\n\tint x_1 = 42 * (y - 7);\n\tif (x_1 >= 10) puts(\"big!\");\n\treturn x_1 != 0 ? 1 : 0; @\n}\n";
    int counts[T_COUNT] = {0};
    int tokens = 0;
    const char *p = src;
    while (*p) {
        enum tok k = kind(*p);
        const char *start = p;
        if (k == T_STRING) {
            p++;
            while (*p && *p != '"')
                p++;
            if (*p)
                p++;
        } else if (k == T_IDENT || k == T_NUM) {
            while (*p && (kind(*p) == T_IDENT || kind(*p) == T_NUM))
                p++;
        } else {
            p++;
        }
        counts[k]++;
        if (k != T_SPACE) {
            tokens++;
            printf("%-6s '", names[k]);
            for (const char *q = start; q < p; q++)
                putchar(*q);
            printf("'\n");
        }
    }
    for (int k = 0; k < T_COUNT; k++)
        printf("%s=%d ", names[k], counts[k]);
    printf("\ntokens=%d\n", tokens);
    signed char sc = (signed char)0xe9;
    switch (sc) {
    case -23: printf("signed char 0xe9 is -23\n"); break;
    default: printf("signed char 0xe9 is not -23\n");
    }
    switch ((unsigned char)sc) {
    case 233: printf("as unsigned char it is 233\n"); break;
    default: printf("as unsigned char it is not 233\n");
    }
    return tokens;
}
