// Recursion: tree recursion (Towers of Hanoi, permutations, N-queens, subset sums).
#include <stdio.h>

static int moves;
static void hanoi(int n, char from, char to, char via, int verbose) {
    if (n == 0)
        return;
    hanoi(n - 1, from, via, to, verbose);
    moves++;
    if (verbose)
        printf("move %d: %c -> %c\n", n, from, to);
    hanoi(n - 1, via, to, from, verbose);
}

static int perm_count;
static void permute(char *s, int k, int n) {
    if (k == n) {
        perm_count++;
        printf("%s ", s);
        return;
    }
    for (int i = k; i < n; i++) {
        char t = s[k]; s[k] = s[i]; s[i] = t;
        permute(s, k + 1, n);
        t = s[k]; s[k] = s[i]; s[i] = t;
    }
}

static int cols[8];
static int safe(int row, int col) {
    for (int r = 0; r < row; r++) {
        int d = cols[r] - col;
        if (d == 0 || d == row - r || -d == row - r)
            return 0;
    }
    return 1;
}
static int queens(int row, int n) {
    if (row == n)
        return 1;
    int count = 0;
    for (int c = 0; c < n; c++) {
        if (safe(row, c)) {
            cols[row] = c;
            count += queens(row + 1, n);
        }
    }
    return count;
}

static int subsets(const int *v, int n, int target) {
    if (target == 0)
        return 1;
    if (n == 0 || target < 0)
        return 0;
    return subsets(v + 1, n - 1, target - v[0]) + subsets(v + 1, n - 1, target);
}

int main(void) {
    hanoi(3, 'A', 'C', 'B', 1);
    moves = 0;
    hanoi(10, 'A', 'C', 'B', 0);
    printf("hanoi(10) moves=%d\n", moves);
    char s[] = "abcd";
    permute(s, 0, 4);
    printf("\npermutations=%d back to %s\n", perm_count, s);
    for (int n = 4; n <= 7; n++)
        printf("queens(%d)=%d\n", n, queens(0, n));
    int v[] = {3, 34, 4, 12, 5, 2, 7, 8};
    printf("subsets summing to 9: %d, to 15: %d, to 100: %d\n", subsets(v, 8, 9), subsets(v, 8, 15),
           subsets(v, 8, 100));
    return queens(0, 6);
}
