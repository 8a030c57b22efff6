// Switch: a dense switch (jump-table shaped) over 0..15 plus the default, used as a day/month table.
#include <stdio.h>

static int days_in_month(int m, int leap) {
    switch (m) {
    case 1: return 31;
    case 2: return leap ? 29 : 28;
    case 3: return 31;
    case 4: return 30;
    case 5: return 31;
    case 6: return 30;
    case 7: return 31;
    case 8: return 31;
    case 9: return 30;
    case 10: return 31;
    case 11: return 30;
    case 12: return 31;
    default: return -1;
    }
}

static const char *hex_name(unsigned v) {
    switch (v) {
    case 0: return "zero"; case 1: return "one"; case 2: return "two"; case 3: return "three";
    case 4: return "four"; case 5: return "five"; case 6: return "six"; case 7: return "seven";
    case 8: return "eight"; case 9: return "nine"; case 10: return "ten"; case 11: return "eleven";
    case 12: return "twelve"; case 13: return "thirteen"; case 14: return "fourteen"; case 15: return "fifteen";
    }
    return "big";
}

static int is_leap(int y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

int main(void) {
    int years[] = {1900, 2000, 2023, 2024};
    for (int i = 0; i < 4; i++) {
        int total = 0;
        for (int m = 0; m <= 13; m++) {
            int d = days_in_month(m, is_leap(years[i]));
            if (d > 0)
                total += d;
        }
        printf("%d: leap=%d days=%d feb=%d\n", years[i], is_leap(years[i]), total, days_in_month(2, is_leap(years[i])));
    }
    printf("month 0 -> %d, month 13 -> %d, month -5 -> %d\n", days_in_month(0, 0), days_in_month(13, 0),
           days_in_month(-5, 0));
    for (unsigned v = 0; v < 18; v += 1)
        printf("%s%s", hex_name(v), v == 17 ? "\n" : ",");
    printf("%s\n", hex_name(0xffffffffu));
    return days_in_month(2, 1);
}
