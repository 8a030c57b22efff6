/* Changed case mapping: code 2 used to be handled as "retry" and is now "fatal"; the
 * selector maps it onto case 5. Each target then branches on the attempt count.
 * code in [-1, 6], attempts in [0, 2]. */
#include "penumbra.h"

enum { OK = 0, RETRY = 2, FATAL = 5 };

int handle(int code, int attempts) {
  switch (change(code, code == 2 ? FATAL : code)) {
  case OK:
    return 0;
  case 1:
  case RETRY:
    if (attempts < 2)
      return 1;
    return 3;
  case 4:
  case FATAL:
    if (attempts > 0)
      return 4;
    return 5;
  default:
    return 6;
  }
}

int main(void) {
  int code, attempts;
  penumbra_make_symbolic(&code, sizeof code, "code");
  penumbra_make_symbolic(&attempts, sizeof attempts, "attempts");
  penumbra_assume(code >= -1 && code <= 6);
  penumbra_assume(attempts >= 0 && attempts <= 2);
  return handle(code, attempts);
}
