/* change() operands with errors (issue 14): the new operand follows a pointer the old one does
 * not. For k == 0, p is the last node: old reads its value (7), new dereferences its null
 * `next` and crashes, a regression. For k != 0 both read fine (3 and 7). */
#include <penumbra.h>

struct node {
    int val;
    struct node *next;
};

int main(void) {
    int k;
    penumbra_make_symbolic(&k, sizeof k, "k");
    penumbra_assume(k >= -1 && k <= 1);
    struct node last = {7, 0}, head = {3, &last};
    struct node *p = k ? &head : &last;
    return change(p->val, p->next->val); /* the operands */
}
