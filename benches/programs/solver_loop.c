/* A loop whose every iteration asks the solver about nonlinear 32-bit arithmetic over three
 * inputs: the --max-time benchmark of results/throughput.md (issue 15: --max-time 2 ended
 * after 18 s). Unbounded in practice; only a budget ends it. */
#include <penumbra.h>

int main(void) {
    unsigned a, b, c;
    penumbra_make_symbolic(&a, sizeof a, "a");
    penumbra_make_symbolic(&b, sizeof b, "b");
    penumbra_make_symbolic(&c, sizeof c, "c");
    int n = 0;
    for (unsigned i = 1; i < 200; i++) {
        if (a * b * i + c * c == (a ^ (b * c)) * (i + 7))
            n++;
        a = a * 3 + b;
    }
    return n;
}
