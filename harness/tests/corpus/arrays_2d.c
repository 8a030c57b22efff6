// 2D arrays: matrix multiply, transpose, Pascal's triangle, spiral order and passing rows to functions.
#include <stdio.h>

#define N 4

static void matmul(const int a[N][N], const int b[N][N], int out[N][N]) {
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            int s = 0;
            for (int k = 0; k < N; k++)
                s += a[i][k] * b[k][j];
            out[i][j] = s;
        }
}

static void print(const char *label, int m[N][N]) {
    printf("%s\n", label);
    for (int i = 0; i < N; i++) {
        for (int j = 0; j < N; j++)
            printf("%5d", m[i][j]);
        printf("\n");
    }
}

static int row_sum(const int *row, int n) {
    int s = 0;
    for (int i = 0; i < n; i++)
        s += row[i];
    return s;
}

int main(void) {
    int a[N][N], b[N][N], c[N][N];
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            a[i][j] = i * N + j + 1;
            b[i][j] = (i == j) * 2 - (i + j == N - 1);
        }
    matmul((const int(*)[N])a, (const int(*)[N])b, c);
    print("a*b", c);
    for (int i = 0; i < N; i++)
        for (int j = i + 1; j < N; j++) {
            int t = c[i][j];
            c[i][j] = c[j][i];
            c[j][i] = t;
        }
    print("transposed", c);
    for (int i = 0; i < N; i++)
        printf("row %d sum %d\n", i, row_sum(c[i], N));

    long pascal[12][12] = {{0}};
    for (int i = 0; i < 12; i++) {
        pascal[i][0] = 1;
        for (int j = 1; j <= i; j++)
            pascal[i][j] = pascal[i - 1][j - 1] + pascal[i - 1][j];
    }
    printf("pascal row 11:");
    for (int j = 0; j < 12; j++)
        printf(" %ld", pascal[11][j]);
    printf("\n");

    char grid[3][5] = {"abcd", "efgh", "ijkl"};
    int top = 0, bottom = 2, left = 0, right = 3;
    printf("spiral: ");
    while (top <= bottom && left <= right) {
        for (int j = left; j <= right; j++) putchar(grid[top][j]);
        top++;
        for (int i = top; i <= bottom; i++) putchar(grid[i][right]);
        right--;
        if (top <= bottom) {
            for (int j = right; j >= left; j--) putchar(grid[bottom][j]);
            bottom--;
        }
        if (left <= right) {
            for (int i = bottom; i >= top; i--) putchar(grid[i][left]);
            left++;
        }
    }
    putchar('\n');
    int cube[2][3][4];
    int v = 0;
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 3; j++)
            for (int k = 0; k < 4; k++)
                cube[i][j][k] = v++;
    int *flat = &cube[0][0][0];
    printf("cube[1][2][3]=%d flat[17]=%d sizeof cube[1]=%zu\n", cube[1][2][3], flat[17], sizeof cube[1]);
    return c[3][0] & 0xff;
}
