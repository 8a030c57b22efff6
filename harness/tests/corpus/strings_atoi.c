// Strings: atoi on signs, whitespace and trailing junk; parsing a comma-separated list.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void) {
    const char *inputs[] = {"0", "42", "-17", "  +8", "\t\n 99bottles", "abc", "-", "2147483647", "-2147483648", "007"};
    int sum = 0;
    for (unsigned i = 0; i < sizeof inputs / sizeof inputs[0]; i++) {
        int v = atoi(inputs[i]);
        printf("atoi #%u = %d\n", i, v);
        sum += v / 1000;
    }
    char csv[] = "3,14,15,92,65,35";
    int values[8];
    int n = 0;
    char *p = csv;
    while (*p && n < 8) {
        values[n++] = atoi(p);
        char *comma = strchr(p, ',');
        if (!comma)
            break;
        p = comma + 1;
    }
    int max = values[0];
    for (int i = 0; i < n; i++) {
        printf("%d%c", values[i], i + 1 < n ? '+' : '=');
        if (values[i] > max)
            max = values[i];
    }
    int total = 0;
    for (int i = 0; i < n; i++)
        total += values[i];
    printf("%d max=%d sum/1000=%d\n", total, max, sum);
    return max;
}
