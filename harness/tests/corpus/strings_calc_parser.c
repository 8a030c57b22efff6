// Strings/recursion: a recursive-descent parser evaluating integer expressions with precedence.
#include <stdio.h>
#include <ctype.h>

static const char *pos;
static int error;

static void skip(void) {
    while (isspace((unsigned char)*pos))
        pos++;
}

static long expr(void);

static long primary(void) {
    skip();
    if (*pos == '(') {
        pos++;
        long v = expr();
        skip();
        if (*pos == ')')
            pos++;
        else
            error = 1;
        return v;
    }
    if (*pos == '-') {
        pos++;
        return -primary();
    }
    if (!isdigit((unsigned char)*pos)) {
        error = 2;
        return 0;
    }
    long v = 0;
    while (isdigit((unsigned char)*pos))
        v = v * 10 + (*pos++ - '0');
    return v;
}

static long term(void) {
    long v = primary();
    for (;;) {
        skip();
        char op = *pos;
        if (op != '*' && op != '/' && op != '%')
            return v;
        pos++;
        long r = primary();
        if (r == 0 && op != '*') {
            error = 3;
            return 0;
        }
        v = op == '*' ? v * r : op == '/' ? v / r : v % r;
    }
}

static long expr(void) {
    long v = term();
    for (;;) {
        skip();
        char op = *pos;
        if (op != '+' && op != '-')
            return v;
        pos++;
        long r = term();
        v = op == '+' ? v + r : v - r;
    }
}

static long eval(const char *s, int *err) {
    pos = s;
    error = 0;
    long v = expr();
    skip();
    if (!error && *pos)
        error = 4;
    *err = error;
    return v;
}

int main(void) {
    const char *cases[] = {"1 + 2 * 3", "(1 + 2) * 3", "100 / 7 % 4", "-7 / 2", "-(3 - 10) * -2",
                           "2 * (3 + (4 - 1) * 5) - 6 / 2", "10 / (5 - 5)", "(1 + 2", "3 $ 4", "   42   "};
    int failures = 0;
    for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int err;
        long v = eval(cases[i], &err);
        if (err) {
            failures++;
            printf("%-32s => error %d\n", cases[i], err);
        } else {
            printf("%-32s => %ld\n", cases[i], v);
        }
    }
    return failures;
}
