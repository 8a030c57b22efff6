// Algorithms: a Brainfuck interpreter with a bracket-matching pre-pass, running two embedded programs.
#include <stdio.h>
#include <string.h>

static int run(const char *prog, int *steps_out) {
    static int match[1024];
    int stack[64], sp = 0;
    int len = (int)strlen(prog);
    for (int i = 0; i < len; i++) {
        if (prog[i] == '[') {
            stack[sp++] = i;
        } else if (prog[i] == ']') {
            if (sp == 0)
                return -1;
            int open = stack[--sp];
            match[open] = i;
            match[i] = open;
        }
    }
    if (sp != 0)
        return -2;
    unsigned char tape[256];
    memset(tape, 0, sizeof tape);
    int ptr = 0, steps = 0, out = 0;
    for (int pc = 0; pc < len; pc++) {
        steps++;
        switch (prog[pc]) {
        case '>': ptr = (ptr + 1) & 255; break;
        case '<': ptr = (ptr - 1) & 255; break;
        case '+': tape[ptr]++; break;
        case '-': tape[ptr]--; break;
        case '.': putchar(tape[ptr]); out++; break;
        case '[': if (!tape[ptr]) pc = match[pc]; break;
        case ']': if (tape[ptr]) pc = match[pc]; break;
        default: steps--; break;
        }
    }
    *steps_out = steps;
    return out;
}

int main(void) {
    const char *hello = "++++++++[>++++[>++>+++>+++>+<<<<-]>+>+>->>+[<]<-]>>.>---.+++++++..+++.>>.<-.<.+++.------.--------.>>+.";
    int steps;
    int out = run(hello, &steps);
    printf("hello: %d chars, %d steps\n", out, steps);
    /* prints the digits 9 down to 0 */
    const char *count = "++++++++++[>+>+++++<<-]>>--[<+>-]<-[>+<-]>>++++++++++<<<++++++++++[>>.-<<-]>>>.";
    out = run(count, &steps);
    printf("count: %d chars, %d steps\n", out, steps);
    printf("unbalanced: %d %d\n", run("[[]", &steps), run("]", &steps));
    const char *wrap = "-.";
    out = run(wrap, &steps);
    printf("\nwrap printed %d char(s)\n", out);
    return steps;
}
