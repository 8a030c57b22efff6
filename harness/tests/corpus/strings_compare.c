// Strings: strcmp/strncmp/memcmp ordering (sign only), sorting names with strcmp.
#include <stdio.h>
#include <string.h>

static int sign(int x) { return (x > 0) - (x < 0); }

int main(void) {
    const char *pairs[][2] = {
        {"apple", "apple"}, {"apple", "apples"}, {"b", "a"}, {"", "x"},
        {"ABC", "abc"}, {"abc\xff", "abc\x01"}, {"zeta", "alpha"}, {"same", "sam"},
    };
    for (unsigned i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
        printf("strcmp(%u) = %d\n", i, sign(strcmp(pairs[i][0], pairs[i][1])));
    }
    printf("strncmp3 = %d\n", sign(strncmp("abcdef", "abcxyz", 3)));
    printf("strncmp4 = %d\n", sign(strncmp("abcdef", "abcxyz", 4)));
    printf("strncmp0 = %d\n", sign(strncmp("a", "b", 0)));
    printf("strncmp-short = %d\n", sign(strncmp("ab", "abc", 10)));
    unsigned char m1[4] = {1, 2, 3, 200};
    unsigned char m2[4] = {1, 2, 3, 100};
    printf("memcmp3 = %d memcmp4 = %d\n", sign(memcmp(m1, m2, 3)), sign(memcmp(m1, m2, 4)));

    const char *names[] = {"mallory", "alice", "eve", "bob", "carol", "dave", "alice"};
    int n = sizeof names / sizeof names[0];
    for (int i = 1; i < n; i++) {
        const char *key = names[i];
        int j = i - 1;
        while (j >= 0 && strcmp(names[j], key) > 0) {
            names[j + 1] = names[j];
            j--;
        }
        names[j + 1] = key;
    }
    for (int i = 0; i < n; i++)
        printf("%s%s", names[i], i + 1 < n ? " " : "\n");
    int dups = 0;
    for (int i = 1; i < n; i++)
        dups += strcmp(names[i - 1], names[i]) == 0;
    return dups;
}
