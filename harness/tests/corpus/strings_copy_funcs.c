// Strings: strcpy, strncpy padding, memcpy, overlapping memmove, memset, strchr/strrchr edge cases.
#include <stdio.h>
#include <string.h>

static void dump(const char *label, const unsigned char *b, int n) {
    printf("%s:", label);
    for (int i = 0; i < n; i++)
        printf(" %02x", b[i]);
    printf("\n");
}

int main(void) {
    char dst[16];
    memset(dst, 'X', sizeof dst);
    strcpy(dst, "hello");
    dump("strcpy", (unsigned char *)dst, 8);
    memset(dst, 'X', sizeof dst);
    strncpy(dst, "hi", 6);
    dump("strncpy pad", (unsigned char *)dst, 8);
    memset(dst, 'X', sizeof dst);
    strncpy(dst, "truncate", 4);
    dump("strncpy trunc", (unsigned char *)dst, 8);

    char buf[] = "0123456789";
    memmove(buf + 2, buf, 5);
    printf("memmove right: %s\n", buf);
    char buf2[] = "0123456789";
    memmove(buf2, buf2 + 3, 6);
    printf("memmove left: %s\n", buf2);

    int src[5] = {1, -2, 300, -40000, 5000000};
    int copy[5];
    memcpy(copy, src, sizeof src);
    int ok = memcmp(copy, src, sizeof src) == 0;
    printf("memcpy ints: %d %d %d %d %d ok=%d\n", copy[0], copy[1], copy[2], copy[3], copy[4], ok);

    unsigned char bytes[6];
    memset(bytes, 0x1ab, sizeof bytes);
    dump("memset", bytes, 6);

    const char *path = "/usr/local/lib/libpenumbra.so";
    const char *slash = strrchr(path, '/');
    const char *dot = strchr(path, '.');
    printf("basename=%s ext=%s\n", slash + 1, dot);
    printf("first slash at %d, last at %d\n", (int)(strchr(path, '/') - path), (int)(slash - path));
    printf("nul via strchr at %d\n", (int)(strchr(path, '\0') - path));
    printf("missing: %d %d\n", strchr(path, 'z') == NULL, strrchr(path, 'q') == NULL);
    printf("strlen empty=%d strlen path=%d\n", (int)strlen(""), (int)strlen(path));
    dst[4] = '\0';
    printf("truncated: %s\n", dst);
    return (int)strlen(dst);
}
