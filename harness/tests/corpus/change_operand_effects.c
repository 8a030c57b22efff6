// penumbra.h: change() operands with effects of their own version only: calls that bump a counter, a read through a pointer only one version follows, and a short-circuit whose reads differ.
// run: --version old
// run: --version new
// run: --version old --input k=1
// run: --version new --input k=1
#include <stdio.h>
#include "penumbra.h"

static int counter;
static int bump(int by) { counter += by; return counter; }

struct node { int val; struct node *next; };

int main(void) {
    int k;
    penumbra_make_symbolic(&k, sizeof k, "k");
    int got = change(bump(1), bump(100));
    printf("got=%d counter=%d\n", got, counter);
    const char rec[4] = {'a', 'b', ',', 'c'};
    int len = 4, i = 0;
    while (change(i < len && rec[i] != ',', i < len && rec[i] != ','))
        i++;
    printf("field=%d\n", i);
    struct node last = {7, NULL}, head = {3, &last};
    struct node *p = k ? &head : &last;
    /* old reads p->val; new follows p->next, which is NULL when k == 0 */
    if (k)
        return change(p->val, p->next->val);
    return change(p->val, 0);
}
