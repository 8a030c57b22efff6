// Structs: an array of records sorted by several keys with insertion sort and struct swaps.
#include <stdio.h>
#include <string.h>

struct employee {
    char name[16];
    int dept;
    int salary;
    unsigned char age;
};

static struct employee staff[] = {
    {"ada", 2, 5200, 36}, {"brian", 1, 4100, 29}, {"carla", 2, 6100, 45}, {"dmitri", 3, 3900, 23},
    {"elena", 1, 4100, 52}, {"farid", 3, 7000, 41}, {"gwen", 2, 5200, 31},
};
#define N ((int)(sizeof staff / sizeof staff[0]))

static int before(const struct employee *a, const struct employee *b) {
    if (a->dept != b->dept)
        return a->dept < b->dept;
    if (a->salary != b->salary)
        return a->salary > b->salary;
    return strcmp(a->name, b->name) < 0;
}

int main(void) {
    for (int i = 1; i < N; i++) {
        struct employee key = staff[i];
        int j = i - 1;
        while (j >= 0 && before(&key, &staff[j])) {
            staff[j + 1] = staff[j];
            j--;
        }
        staff[j + 1] = key;
    }
    int payroll[4] = {0};
    int oldest = 0;
    for (int i = 0; i < N; i++) {
        printf("%-8s dept=%d salary=%5d age=%u\n", staff[i].name, staff[i].dept, staff[i].salary, staff[i].age);
        payroll[staff[i].dept] += staff[i].salary;
        if (staff[i].age > staff[oldest].age)
            oldest = i;
    }
    for (int d = 1; d <= 3; d++)
        printf("dept %d payroll %d\n", d, payroll[d]);
    printf("oldest %s\n", staff[oldest].name);
    return staff[0].name[0];
}
