// Recursion: mutual recursion (even/odd, Hofstadter female/male sequences, a tiny grammar checker).
#include <stdio.h>

static int is_odd(unsigned n);
static int is_even(unsigned n) { return n == 0 ? 1 : is_odd(n - 1); }
static int is_odd(unsigned n) { return n == 0 ? 0 : is_even(n - 1); }

static int hof_m(int n);
static int hof_f(int n) { return n == 0 ? 1 : n - hof_m(hof_f(n - 1)); }
static int hof_m(int n) { return n == 0 ? 0 : n - hof_f(hof_m(n - 1)); }

/* list := '[' items? ']' ; items := elem (',' elem)* ; elem := digit | list */
static const char *p;
static int parse_list(void);
static int parse_elem(void) {
    if (*p >= '0' && *p <= '9') {
        p++;
        return 1;
    }
    return parse_list();
}
static int parse_list(void) {
    if (*p != '[')
        return 0;
    p++;
    if (*p == ']') {
        p++;
        return 1;
    }
    if (!parse_elem())
        return 0;
    while (*p == ',') {
        p++;
        if (!parse_elem())
            return 0;
    }
    if (*p != ']')
        return 0;
    p++;
    return 1;
}
static int valid(const char *s) {
    p = s;
    return parse_list() && *p == '\0';
}

int main(void) {
    printf("even(10)=%d odd(10)=%d even(7)=%d odd(777)=%d\n", is_even(10), is_odd(10), is_even(7), is_odd(777));
    printf("F:");
    for (int i = 0; i < 16; i++)
        printf(" %d", hof_f(i));
    printf("\nM:");
    for (int i = 0; i < 16; i++)
        printf(" %d", hof_m(i));
    printf("\n");
    const char *lists[] = {"[]", "[1,2,3]", "[[1],[2,[3,[]]],4]", "[1,,2]", "[[]", "[1]x", "[[[[[[9]]]]]]"};
    int ok = 0;
    for (int i = 0; i < 7; i++) {
        int v = valid(lists[i]);
        ok += v;
        printf("%-22s %s\n", lists[i], v ? "valid" : "invalid");
    }
    return ok;
}
