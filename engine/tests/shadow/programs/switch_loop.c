/* A tokenizer-like state machine: a switch on the state inside a loop over input bits, with a
 * changed transition; the versions can first differ at any iteration's switch.
 * bits in [0, 15]. */
#include "penumbra.h"

int run(int bits) {
  int state = 0;
  for (int i = 0; i < 4; i++) {
    int b = (bits >> i) & 1;
    switch (state) {
    case 0:
      state = b ? 1 : 0;
      break;
    case 1:
      state = b ? 2 : change(0, 3);
      break;
    case 2:
      state = b ? 2 : 1;
      break;
    default:
      state = b ? 0 : 3;
      break;
    }
  }
  if (state == 2)
    return 1;
  return 0;
}

int main(void) {
  int bits;
  penumbra_make_symbolic(&bits, sizeof bits, "bits");
  penumbra_assume(bits >= 0 && bits <= 15);
  return run(bits);
}
