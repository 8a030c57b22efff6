// Enums: explicit and implicit values, negative enumerators, switch over an enum-driven traffic-light machine.
#include <stdio.h>

enum light { RED, RED_AMBER, GREEN, AMBER, LIGHT_COUNT };
enum level { LOW = -10, MID = 0, HIGH = 10, MAX_LEVEL = HIGH * 100 };
enum flags { F_READ = 1 << 0, F_WRITE = 1 << 1, F_EXEC = 1 << 2 };

static const char *light_name[LIGHT_COUNT] = {"red", "red+amber", "green", "amber"};

static enum light next(enum light l, int emergency) {
    if (emergency)
        return l == GREEN ? AMBER : RED;
    switch (l) {
    case RED: return RED_AMBER;
    case RED_AMBER: return GREEN;
    case GREEN: return AMBER;
    case AMBER: return RED;
    default: return RED;
    }
}

static int duration(enum light l) {
    static const int secs[] = {[RED] = 30, [RED_AMBER] = 2, [GREEN] = 25, [AMBER] = 3};
    return secs[l];
}

int main(void) {
    enum light l = RED;
    int t = 0;
    for (int step = 0; step < 10; step++) {
        printf("t=%3d %s\n", t, light_name[l]);
        t += duration(l);
        l = next(l, step == 6);
    }
    printf("levels %d %d %d %d\n", LOW, MID, HIGH, MAX_LEVEL);
    enum flags f = F_READ | F_EXEC;
    printf("flags=%d read=%d write=%d exec=%d sizeof(enum)=%zu\n", f, !!(f & F_READ), !!(f & F_WRITE),
           !!(f & F_EXEC), sizeof f);
    return t % 256;
}
