// Globals: initialised scalars, arrays of string pointers, pointers to globals, const tables, struct globals.
#include <stdio.h>
#include <string.h>

int counter = 41;
long big_global = -5000000000L;
unsigned char small_table[8] = {1, 2, 4, 8, 16, 32, 64, 128};
int zeroed[5];
static const char *const colors[] = {"red", "green", "blue", "cyan", "magenta"};
const int primes[] = {2, 3, 5, 7, 11, 13, 17, 19, 23, 29};
int *counter_ptr = &counter;
const int *prime_ptr = &primes[4];
char message[] = "global message";
const char *message_alias = message + 7;

struct config { const char *name; int level; int flags[3]; };
struct config configs[] = {
    {"debug", 3, {1, 0, 1}},
    {"release", 1, {0, 1}},
    {0},
};
struct config *current = &configs[1];
int *table_of_ptrs[] = {&counter, &zeroed[2], NULL};

static int bump(void) { return ++*counter_ptr; }

int main(void) {
    printf("counter=%d big=%ld\n", counter, big_global);
    int mask = 0;
    for (int i = 0; i < 8; i++)
        mask |= small_table[i];
    printf("mask=%d zeroed sum=%d\n", mask, zeroed[0] + zeroed[1] + zeroed[2] + zeroed[3] + zeroed[4]);
    for (int i = 0; i < 5; i++)
        printf("color %d: %s (%zu)\n", i, colors[i], strlen(colors[i]));
    printf("prime_ptr -> %d, next %d, index %d\n", *prime_ptr, prime_ptr[1], (int)(prime_ptr - primes));
    bump();
    bump();
    printf("counter after bumps=%d\n", counter);
    printf("alias='%s'\n", message_alias);
    message[7] = 'M';
    printf("alias after write='%s'\n", message_alias);
    for (struct config *c = configs; c->name; c++)
        printf("config %s level %d flags %d%d%d\n", c->name, c->level, c->flags[0], c->flags[1], c->flags[2]);
    printf("current=%s\n", current->name);
    *table_of_ptrs[1] = 77;
    printf("zeroed[2]=%d via table, counter via table=%d, last null=%d\n", zeroed[2], *table_of_ptrs[0],
           table_of_ptrs[2] == NULL);
    big_global += 5000000001L;
    printf("big now %ld\n", big_global);
    return counter;
}
