// Floating point: musl's libm functions whose results are exact (sqrt, floor, ceil, trunc, round, rint, fmod, remainder, frexp, ldexp, modf, nextafter, fmin, fmax) on edge values.
// libc: musl
#include <stdio.h>
#include <math.h>
int main(void) {
    double v[] = {2.0, 0.5, -2.5, 1e-310, 1e300, -0.0, 3.5, -7.25, 123456.789};
    for (int i = 0; i < 9; i++) {
        double x = v[i], ip;
        int e;
        double fr = frexp(x, &e);
        double f = modf(x, &ip);
        printf("%a %a %a %a %a %a %a %a %d %a %a %a %a\n", sqrt(fabs(x)), floor(x), ceil(x), trunc(x), round(x), rint(x),
               fmod(x, 0.75), remainder(x, 0.75), e, fr, ldexp(x, -3), f, nextafter(x, 0.0));
    }
    printf("%g %g %g %Lg\n", fmin(1.0, NAN), fmax(NAN, -1.0), sqrtf(2.0f), sqrtl(2.0L));
    printf("%a %La\n", sqrt(2.0), sqrtl(2.0L));
    return 0;
}
