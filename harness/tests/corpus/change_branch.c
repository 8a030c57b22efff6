// penumbra.h: a patched bounds check and loop bound; the versions take different branches and exit differently.
// run: --version old
// run: --version new
#include <stdio.h>
#include <string.h>
#include "penumbra.h"

static int clamp_len(const char *s) {
    int len = (int)strlen(s);
    /* the patch tightens the limit from 8 to 5 characters */
    if (len > change(8, 5))
        return change(8, 5);
    return len;
}

static int score(int x) {
    /* old: x > 5, new: x >= 5 (an off-by-one fix) */
    if (change(x > 5, x >= 5))
        return x * 2;
    return -x;
}

int main(void) {
    const char *words[] = {"tiny", "medium", "enormous!"};
    int total = 0;
    for (int i = 0; i < 3; i++) {
        int n = clamp_len(words[i]);
        printf("%s -> %d\n", words[i], n);
        total += n;
    }
    for (int x = 4; x <= 6; x++)
        printf("score(%d) = %d\n", x, score(x));
    int exec_old = penumbra_execute(OLD);
    int exec_new = penumbra_execute(NEW);
    printf("execute(OLD)=%d execute(NEW)=%d\n", exec_old, exec_new);
    if (total > 15)
        return 1;
    return 0;
}
