// Strings: ctype classification and case mapping, Caesar cipher, title-casing.
#include <stdio.h>
#include <ctype.h>
#include <string.h>

static int is_upper_ascii(char c) { return c >= 'A' && c <= 'Z'; }

static void caesar(char *s, int shift) {
    for (; *s; s++) {
        if (isalpha((unsigned char)*s)) {
            char base = is_upper_ascii(*s) ? 'A' : 'a';
            *s = (char)(base + (*s - base + shift + 26) % 26);
        }
    }
}

static void title_case(char *s) {
    int start = 1;
    for (; *s; s++) {
        if (isspace((unsigned char)*s)) {
            start = 1;
        } else {
            *s = (char)(start ? toupper((unsigned char)*s) : tolower((unsigned char)*s));
            start = 0;
        }
    }
}

int main(void) {
    const char sample[] = "Az09 \t\n_!~";
    int digits = 0, spaces = 0, alphas = 0;
    for (int i = 0; sample[i]; i++) {
        unsigned char c = (unsigned char)sample[i];
        int printable = c >= 32 && c < 127;
        printf("%3d: digit=%d space=%d alpha=%d upper=%c lower=%c\n", c, !!isdigit(c), !!isspace(c),
               !!isalpha(c), printable ? toupper(c) : '?', printable ? tolower(c) : '?');
        digits += !!isdigit(c);
        spaces += !!isspace(c);
        alphas += !!isalpha(c);
    }
    printf("toupper(-1 as EOF)=%d tolower(200)=%d\n", toupper(-1), tolower(200));
    char msg[] = "Hello, World! xyz ABC";
    caesar(msg, 3);
    printf("caesar +3: %s\n", msg);
    caesar(msg, -3);
    printf("caesar -3: %s\n", msg);
    char title[] = "  the sHADOW\tof a  PATCH";
    title_case(title);
    printf("title: [%s]\n", title);
    return digits * 100 + spaces * 10 + alphas;
}
