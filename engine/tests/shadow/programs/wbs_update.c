/* A wheel-brake-system style update step (after WBS.update from the ShadowJPF+ evaluation):
 * a mode machine over pedal position and auto-brake flag, with a changed pedal threshold and
 * a changed mode in one branch. pedal in [0, 4], autobrake in [0, 1]. */
#include "penumbra.h"

static int mode;
static int pressure;

void update(int pedal, int autobrake) {
  if (pedal == 0) {
    mode = 0;
    pressure = 0;
  } else if (pedal >= change(3, 2)) {
    mode = 2;
    pressure = pedal * 10;
  } else {
    mode = autobrake ? change(1, 3) : 1;
    pressure = pedal * 5;
  }
  if (mode == 3 && pressure > 5)
    pressure = 5;
}

int main(void) {
  int pedal, autobrake;
  penumbra_make_symbolic(&pedal, sizeof pedal, "pedal");
  penumbra_make_symbolic(&autobrake, sizeof autobrake, "autobrake");
  penumbra_assume(pedal >= 0 && pedal <= 4);
  penumbra_assume(autobrake >= 0 && autobrake <= 1);
  update(pedal, autobrake);
  if (pressure > 10)
    return 2;
  return mode > 1;
}
