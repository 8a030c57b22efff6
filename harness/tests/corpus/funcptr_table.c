// Function pointers: an opcode dispatch table running a tiny stack machine.
#include <stdio.h>

typedef long (*binop)(long, long);
static long op_add(long a, long b) { return a + b; }
static long op_sub(long a, long b) { return a - b; }
static long op_mul(long a, long b) { return a * b; }
static long op_max(long a, long b) { return a > b ? a : b; }
static long op_and(long a, long b) { return a & b; }

struct opinfo { const char *name; binop fn; };
static const struct opinfo ops[] = {
    {"add", op_add}, {"sub", op_sub}, {"mul", op_mul}, {"max", op_max}, {"and", op_and},
};

enum { PUSH = 10, PRINT = 11, DUP = 12, HALT = 13 };

static long run(const int *code) {
    long stack[16];
    int sp = 0;
    for (int pc = 0;; pc++) {
        int op = code[pc];
        if (op < 5) {
            long b = stack[--sp];
            long a = stack[--sp];
            stack[sp++] = ops[op].fn(a, b);
            printf("  %s(%ld, %ld) = %ld\n", ops[op].name, a, b, stack[sp - 1]);
        } else if (op == PUSH) {
            stack[sp++] = code[++pc];
        } else if (op == DUP) {
            stack[sp] = stack[sp - 1];
            sp++;
        } else if (op == PRINT) {
            printf("  top = %ld\n", stack[sp - 1]);
        } else {
            return sp ? stack[sp - 1] : 0;
        }
    }
}

int main(void) {
    int prog1[] = {PUSH, 6, PUSH, 7, 2, DUP, 2, PUSH, 100, 1, PRINT, HALT};
    int prog2[] = {PUSH, -5, PUSH, 3, 3, PUSH, 12, PUSH, 10, 4, 0, HALT};
    printf("prog1:\n");
    long r1 = run(prog1);
    printf("prog2:\n");
    long r2 = run(prog2);
    printf("results %ld %ld\n", r1, r2);
    binop chosen = r1 > r2 ? op_sub : op_add;
    printf("chosen is sub: %d -> %ld\n", chosen == op_sub, chosen(r1, r2));
    return (int)(r1 + r2) & 0xff;
}
