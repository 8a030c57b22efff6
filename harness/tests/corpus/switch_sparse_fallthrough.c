// Switch: sparse and negative case values, fallthrough chains, default in the middle, long switch values.
#include <stdio.h>

static int classify(int code) {
    int score = 0;
    switch (code) {
    case -1000:
        score += 1;
        /* fallthrough */
    case -1:
        score += 10;
        break;
    default:
        score = -1;
        break;
    case 0:
        score = 0;
        break;
    case 404:
    case 410:
        score += 100;
        /* fallthrough */
    case 500:
        score += 1000;
        /* fallthrough */
    case 1 << 20:
        score += 10000;
        break;
    case 2147483647:
        score = 7;
        break;
    case -2147483647 - 1:
        score = 8;
        break;
    }
    return score;
}

static const char *big(long long v) {
    switch (v) {
    case 0x100000000LL: return "2^32";
    case -0x100000000LL: return "-2^32";
    case 0x7fffffffffffffffLL: return "max";
    case 5: return "five";
    default: return "other";
    }
}

/* Duff's device: copying with a switch that jumps into a loop. */
static void duff_copy(char *to, const char *from, int count) {
    int n = (count + 7) / 8;
    switch (count % 8) {
    case 0: do { *to++ = *from++;
    /* fallthrough */ case 7: *to++ = *from++;
    /* fallthrough */ case 6: *to++ = *from++;
    /* fallthrough */ case 5: *to++ = *from++;
    /* fallthrough */ case 4: *to++ = *from++;
    /* fallthrough */ case 3: *to++ = *from++;
    /* fallthrough */ case 2: *to++ = *from++;
    /* fallthrough */ case 1: *to++ = *from++;
            } while (--n > 0);
    }
}

int main(void) {
    int codes[] = {-1000, -1, 0, 1, 404, 410, 500, 1 << 20, 2147483647, -2147483647 - 1, 999, -999};
    int total = 0;
    for (int i = 0; i < 12; i++) {
        int s = classify(codes[i]);
        total += s;
        printf("classify(%d) = %d\n", codes[i], s);
    }
    long long vs[] = {0x100000000LL, -0x100000000LL, 0x7fffffffffffffffLL, 5, 0x100000005LL};
    for (int i = 0; i < 5; i++)
        printf("big(%lld) = %s\n", vs[i], big(vs[i]));
    char dst[32];
    const char *src = "Duff's device copies 23!";
    for (int len = 1; len <= 24; len += 7) {
        duff_copy(dst, src, len);
        dst[len] = '\0';
        printf("duff %2d: %s\n", len, dst);
    }
    return total & 0xff;
}
