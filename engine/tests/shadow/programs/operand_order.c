/* A loop condition whose operands differ in evaluation order (issue 14): the old version reads
 * rec[i] before testing i < len, one byte past the buffer when no comma stops it and
 * len == 4. That is a fix (an error in old only): new stops at i == len. */
#include <penumbra.h>

int main(void) {
    char rec[4];
    int len;
    penumbra_make_symbolic(rec, sizeof rec, "rec");
    penumbra_make_symbolic(&len, sizeof len, "len");
    penumbra_assume(len >= 0 && len <= 4);
    int i = 0;
    while (change(rec[i] != ',' && i < len, i < len && rec[i] != ',')) /* the loop */
        i++;
    return i;
}
