/* The interpreter loop without symbolic data: a sieve of Eratosthenes over 200,000 ints (loads,
 * stores, a nested loop) and a naive recursive fib(25) (calls and returns). The `interpreter`
 * benchmark runs it in the concrete interpreter and in the symbolic engine, where every value
 * is a constant term. main returns fib(25) + the number of primes below 200,000 = 92,009. */
static int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

int main(void) {
    static int sieve[200000];
    int count = 0;
    for (int i = 2; i < 200000; i++)
        if (!sieve[i]) {
            count++;
            for (int j = 2 * i; j < 200000; j += i)
                sieve[j] = 1;
        }
    return (fib(25) + count) % 256;
}
