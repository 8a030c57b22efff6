// Structs/sizeof: sizes of basic types, padding, offsetof, bit-fields, flexible use of sizeof.
#include <stdio.h>
#include <stddef.h>
#include <stdint.h>

struct padded { char c; int i; char d; };
struct packed_order { int i; char c; char d; };
struct with_long { char c; long l; short s; };
struct bits { unsigned a : 3; unsigned b : 5; signed c : 4; unsigned d : 20; };
struct nested { struct padded p; char tail[3]; };

int main(void) {
    printf("char=%zu short=%zu int=%zu long=%zu llong=%zu ptr=%zu size_t=%zu\n", sizeof(char), sizeof(short),
           sizeof(int), sizeof(long), sizeof(long long), sizeof(void *), sizeof(size_t));
    printf("int8=%zu int16=%zu int32=%zu int64=%zu\n", sizeof(int8_t), sizeof(int16_t), sizeof(int32_t),
           sizeof(int64_t));
    printf("padded=%zu off(i)=%zu off(d)=%zu\n", sizeof(struct padded), offsetof(struct padded, i),
           offsetof(struct padded, d));
    printf("packed_order=%zu with_long=%zu off(l)=%zu off(s)=%zu\n", sizeof(struct packed_order),
           sizeof(struct with_long), offsetof(struct with_long, l), offsetof(struct with_long, s));
    printf("nested=%zu off(tail)=%zu\n", sizeof(struct nested), offsetof(struct nested, tail));
    struct bits b = {5, 17, -3, 1000000};
    printf("bits size=%zu a=%u b=%u c=%d d=%u\n", sizeof b, b.a, b.b, b.c, b.d);
    b.a += 4; /* wraps within 3 bits */
    b.c = 7;
    b.c += 1; /* 4-bit signed field: 8 does not fit */
    printf("bits after a=%u c=%d\n", b.a, (int)b.c);
    int arr[17];
    char str[] = "sizeof";
    printf("arr=%zu elems=%zu str=%zu\n", sizeof arr, sizeof arr / sizeof arr[0], sizeof str);
    return (int)sizeof(struct with_long);
}
