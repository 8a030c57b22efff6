/* ctrl_c12.c: a mutant of ctrl: a cruise/brake controller, two steps of a five-mode machine with symbolic sensors.
 * Changes in this unified file:
 *   C1: one failed sensor reading (not two) puts the controller in FAULT
 *   C2: the fault counter recovers only from 2 (faults > 0 -> faults > 1)
 * Generated from one template per program; other mutants carry other changes. */
#include "penumbra.h"

enum { OFF, STANDBY, CRUISE, BRAKE, FAULT };

static int mode;
static int faults;
static int target = 2;
static int cmd;

/* One control step: sensor health first, then the mode machine. */
static void step(int speed, int pedal, int button, int sensor_ok) {
  if (!sensor_ok) {
    faults++;
    if (faults >= change(2, 1)) {
      mode = FAULT;
      cmd = 0;
      return;
    }
  } else if (change(faults > 0, faults > 1)) {
    faults--;
  }
  switch (mode) {
  case OFF:
    if (button == 1)
      mode = STANDBY;
    break;
  case STANDBY:
    if (button == 1 && pedal == 0 && speed >= 2) {
      mode = CRUISE;
      target = speed;
    }
    break;
  case CRUISE:
    if (pedal > 0)
      mode = BRAKE;
    else if (button == 2)
      mode = STANDBY;
    else if (speed < target - 1)
      cmd = 2;
    else if (speed > target)
      cmd = -1;
    else
      cmd = 0;
    break;
  case BRAKE:
    cmd = -pedal;
    if (pedal == 0)
      mode = STANDBY;
    break;
  default: /* FAULT */
    cmd = 0;
    if (button == 2 && sensor_ok) {
      mode = STANDBY;
      faults = 0;
    }
  }
}

int main(void) {
  int mode0, faults0, speed[2], pedal[2], button[2], ok[2];
  int active = 0; /* steps with a nonzero actuator command */
  penumbra_make_symbolic(&mode0, sizeof mode0, "mode0");
  penumbra_make_symbolic(&faults0, sizeof faults0, "faults0");
  penumbra_make_symbolic(&speed[0], sizeof speed[0], "speed0");
  penumbra_make_symbolic(&pedal[0], sizeof pedal[0], "pedal0");
  penumbra_make_symbolic(&button[0], sizeof button[0], "button0");
  penumbra_make_symbolic(&ok[0], sizeof ok[0], "ok0");
  penumbra_make_symbolic(&speed[1], sizeof speed[1], "speed1");
  penumbra_make_symbolic(&pedal[1], sizeof pedal[1], "pedal1");
  penumbra_make_symbolic(&button[1], sizeof button[1], "button1");
  penumbra_make_symbolic(&ok[1], sizeof ok[1], "ok1");
  penumbra_assume(mode0 >= OFF && mode0 <= FAULT);
  penumbra_assume(faults0 >= 0 && faults0 <= 1);
  mode = mode0;
  faults = faults0;
  for (int t = 0; t < 2; t++) {
    penumbra_assume(speed[t] >= 0 && speed[t] <= 4);
    penumbra_assume(pedal[t] >= 0 && pedal[t] <= 2);
    penumbra_assume(button[t] >= 0 && button[t] <= 2);
    penumbra_assume(ok[t] >= 0 && ok[t] <= 1);
    step(speed[t], pedal[t], button[t], ok[t]);
    /* the actuator saturates at -3 */
    if (cmd < -3)
      cmd = -3;
    if (cmd != 0)
      active++;
    /* safety: never cruise with the brake pedal pressed */
    penumbra_assert(!(mode == CRUISE && pedal[t] > 0));
  }
  return mode * 16 + (cmd + 4) * 2 + (active > 1);
}
