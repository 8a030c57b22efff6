/* change() operands with side effects (issue 14): each version bumps the counter by its own
 * amount only, so old ends with counter == 1 and new with counter == 100. */
#include <penumbra.h>

static int counter;

static int bump(int by) {
    counter += by;
    return counter;
}

int main(void) {
    int x;
    penumbra_make_symbolic(&x, sizeof x, "x");
    penumbra_assume(x >= 0 && x <= 3);
    int r = change(bump(1), bump(100));
    if (x == 2 && r > 50) /* the new version's value */
        return 9;
    return counter;
}
