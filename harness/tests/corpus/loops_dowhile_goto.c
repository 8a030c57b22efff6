// Loops: do-while (including zero-trip conditions), goto-based loops and a goto state machine.
#include <stdio.h>

static int digits(unsigned long n) {
    int d = 0;
    do {
        d++;
        n /= 10;
    } while (n);
    return d;
}

static unsigned collatz_steps(unsigned long n) {
    unsigned steps = 0;
loop:
    if (n == 1)
        return steps;
    n = n % 2 ? 3 * n + 1 : n / 2;
    steps++;
    goto loop;
}

/* Accepts strings of the form a+b*c? (regex-like) with explicit goto states. */
static int accepts(const char *s) {
state_a:
    if (*s == 'a') { s++; goto state_a_seen; }
    return 0;
state_a_seen:
    if (*s == 'a') { s++; goto state_a_seen; }
    if (*s == 'b') { s++; goto state_b; }
    goto state_c;
state_b:
    if (*s == 'b') { s++; goto state_b; }
    goto state_c;
state_c:
    if (*s == 'c') s++;
    return *s == '\0';
    goto state_a; /* unreachable, keeps the label used */
}

int main(void) {
    unsigned long samples[] = {0, 7, 10, 99999, 18446744073709551615ul};
    for (int i = 0; i < 5; i++)
        printf("digits(%lu)=%d\n", samples[i], digits(samples[i]));
    unsigned best = 0, arg = 0;
    for (unsigned n = 1; n < 300; n++) {
        unsigned s = collatz_steps(n);
        if (s > best) {
            best = s;
            arg = n;
        }
    }
    printf("longest collatz below 300: %u steps from %u\n", best, arg);
    const char *words[] = {"a", "aab", "abbbc", "c", "ac", "abcc", "", "aaaabbbbc", "ba"};
    int accepted = 0;
    for (int i = 0; i < 9; i++) {
        int ok = accepts(words[i]);
        accepted += ok;
        printf("'%s' %s\n", words[i], ok ? "accepted" : "rejected");
    }
    int k = 100, trips = 0;
    do {
        trips++;
    } while (k < 50);
    printf("do-while with false condition ran %d time(s)\n", trips);
    return accepted;
}
