/* A tokenizer over a 6-byte symbolic buffer: every byte is a digit, an operator (+ - * /), a
 * space or something else, and a switch table picks the action: 4^6 = 4,096 paths. */
#include <penumbra.h>

int main(void) {
    char in[6];
    penumbra_make_symbolic(in, sizeof in, "in");
    int digits = 0, ops = 0, spaces = 0, other = 0;
    for (int i = 0; i < 6; i++) {
        switch (in[i]) {
        case '0': case '1': case '2': case '3': case '4':
        case '5': case '6': case '7': case '8': case '9':
            digits++;
            break;
        case '+': case '-': case '*': case '/':
            ops++;
            break;
        case ' ':
            spaces++;
            break;
        default:
            other++;
        }
    }
    return digits * 64 + ops * 8 + spaces + other;
}
