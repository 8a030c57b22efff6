/* tr's translation table: 256 bytes, the identity but for entries written at symbolic offsets,
 * then read at symbolic offsets (each input byte through the table) and compared. A read is
 * the table's one counting run under an `ite` per byte written (the engine memory's write
 * log), where it was a chain of 256 `ite`s, each over the writes. 2^8 paths. */
#include "penumbra.h"
static unsigned char xlate[256];
int main(void) {
    unsigned char from[3], to[3], in[8];
    penumbra_make_symbolic(from, sizeof from, "from");
    penumbra_make_symbolic(to, sizeof to, "to");
    penumbra_make_symbolic(in, sizeof in, "in");
    for (int i = 0; i < 256; i++)
        xlate[i] = i;
    for (int i = 0; i < 3; i++)
        xlate[from[i]] = to[i];
    int tabs = 0;
    for (int i = 0; i < 8; i++)
        if (xlate[in[i]] == '\t')
            tabs++;
    return tabs;
}
