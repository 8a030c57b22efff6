// penumbra.h + symbolic input: a patched discount rule applied to a symbolic price, for both versions.
// run: --version old --input price=120
// run: --version new --input price=120
// run: --version old --input price=99
// run: --version new --input price=99
// run: --version new --input price=-4
#include <stdio.h>
#include "penumbra.h"

static int discount(int price) {
    /* the patch lowers the threshold for a discount and raises the rate */
    if (price >= change(100, 50))
        return price * change(10, 15) / 100;
    return 0;
}

int main(void) {
    int price;
    penumbra_make_symbolic(&price, sizeof price, "price");
    if (price < 0) {
        printf("invalid price %d\n", price);
        return 2;
    }
    int d = discount(price);
    printf("price=%d discount=%d pay=%d\n", price, d, price - d);
    return d > 0;
}
