// Strings: in-place reversal, word reversal and palindrome checks.
#include <stdio.h>
#include <string.h>
#include <ctype.h>

static void reverse_range(char *s, int i, int j) {
    while (i < j) {
        char t = s[i];
        s[i] = s[j];
        s[j] = t;
        i++;
        j--;
    }
}

static void reverse_words(char *s) {
    int n = (int)strlen(s);
    reverse_range(s, 0, n - 1);
    int start = 0;
    for (int i = 0; i <= n; i++) {
        if (s[i] == ' ' || s[i] == '\0') {
            reverse_range(s, start, i - 1);
            start = i + 1;
        }
    }
}

static int is_palindrome(const char *s) {
    int i = 0, j = (int)strlen(s) - 1;
    while (i < j) {
        while (i < j && !isalpha((unsigned char)s[i])) i++;
        while (i < j && !isalpha((unsigned char)s[j])) j--;
        if (tolower((unsigned char)s[i]) != tolower((unsigned char)s[j]))
            return 0;
        i++;
        j--;
    }
    return 1;
}

int main(void) {
    char a[] = "penumbra";
    reverse_range(a, 0, (int)strlen(a) - 1);
    printf("%s\n", a);
    char b[] = "one two three four";
    reverse_words(b);
    printf("%s\n", b);
    const char *cands[] = {"A man, a plan, a canal: Panama", "racecar", "hello", "", "ab", "Was it a car or a cat I saw?"};
    int count = 0;
    for (unsigned i = 0; i < sizeof cands / sizeof cands[0]; i++) {
        int p = is_palindrome(cands[i]);
        count += p;
        printf("\"%s\" -> %s\n", cands[i], p ? "palindrome" : "no");
    }
    char single[] = "x";
    reverse_range(single, 0, 0);
    printf("single=%s count=%d\n", single, count);
    return count;
}
