/* controller.c with every change replaced by a refactoring that keeps the meaning (the shadow
 * overhead benchmark: `penumbra shadow` on it should cost about what `penumbra run` costs).
 *
 * A wheel-brake controller in the style of the WBS subject of the ShadowJPF+ evaluation:
 * a step function over a small state machine (normal, alternate and emergency braking, an
 * anti-skid mode), called three times on symbolic sensor readings. The patch changes eight
 * conditions (thresholds, a strengthened and a weakened guard, a mode test), some of which
 * only matter in combination.
 *
 * Benchmark of complete shadow execution (issue 5): on the order of 10^5 four-way states.
 */
#include "penumbra.h"

enum mode { NORMAL = 0, ALTERNATE = 1, EMERGENCY = 2, FAILED = 3 };

struct wbs {
    int mode;
    int nor_pressure;      /* pressure of the normal hydraulic line */
    int alt_pressure;      /* pressure of the alternate line */
    int brake_cmd;         /* commanded brake force, 0..100 */
    int anti_skid;         /* anti-skid on */
    int skid_count;        /* consecutive steps with a skid */
    int warnings;          /* warnings raised */
    int fault_latched;     /* a hydraulic fault was seen */
};

struct sensors {
    unsigned char pedal;   /* pedal position, 0..255 */
    unsigned char auto_brake;
    unsigned char skid;    /* wheel skid detected */
    unsigned char power;   /* electrical power ok */
};

static int clamp(int v, int lo, int hi) {
    if (v < lo)
        return lo;
    if (v > hi)
        return hi;
    return v;
}

/* The pedal's travel zone: released, light, medium, firm, full. */
static int pedal_zone(unsigned char pedal) {
    if (pedal == 0)
        return 0;
    if (pedal < 40)
        return 1;
    if (pedal < 120)
        return 2;
    if (pedal < 200)
        return 3;
    return 4;
}

/* The brake command the pedal and the auto-brake ask for. */
static int command(const struct sensors *s) {
    static const int gain[5] = {0, 3, 5, 6, 8};
    int zone = pedal_zone(s->pedal);
    int cmd = (s->pedal * gain[zone]) / 10;
    /* changed threshold: auto-brake now engages from a lighter pedal */
    if (s->auto_brake && change(s->pedal < 20, 20 > s->pedal))
        cmd = 60;
    if (cmd > 100)
        cmd = 100;
    return cmd;
}

/* Pressure on the normal line for a command. */
static int normal_pressure(const struct wbs *w, int cmd) {
    int p = cmd * 10;
    if (w->anti_skid && w->skid_count > 0)
        p = p / 2;
    return clamp(p, 0, 1000);
}

/* Pressure on the alternate line for a command. */
static int alternate_pressure(const struct wbs *w, int cmd) {
    int p = cmd * 8;
    /* strengthened guard: the alternate line reduces pressure only when anti-skid is on */
    if (w->skid_count > 1 && change(1, w->anti_skid || !w->anti_skid))
        p = p - p / 4;
    return clamp(p, 0, 800);
}

/* Mode transitions. */
static void transition(struct wbs *w, const struct sensors *s) {
    switch (w->mode) {
    case NORMAL:
        if (!s->power) {
            w->mode = ALTERNATE;
            w->warnings++;
        }
        /* changed threshold of the pressure check */
        else if (w->nor_pressure > change(900, 899 + 1)) {
            w->fault_latched = 1;
            w->mode = ALTERNATE;
        }
        break;
    case ALTERNATE:
        /* weakened guard: power coming back alone is enough now */
        if (s->power && change(!w->fault_latched, w->fault_latched == 0)) {
            w->mode = NORMAL;
        } else if (w->alt_pressure > 700) {
            w->mode = EMERGENCY;
            w->warnings++;
        }
        break;
    case EMERGENCY:
        if (s->power && s->pedal == 0)
            w->mode = ALTERNATE;
        else if (w->warnings > 3)
            w->mode = FAILED;
        break;
    default:
        break;
    }
}

/* Anti-skid bookkeeping. */
static void skid_control(struct wbs *w, const struct sensors *s) {
    if (s->skid) {
        w->skid_count++;
        /* changed: anti-skid now switches on after the first skid */
        if (w->skid_count >= change(2, 1 + 1))
            w->anti_skid = 1;
    } else {
        w->skid_count = 0;
        /* changed mode test: anti-skid also stays on in emergency mode */
        if (change(w->mode != NORMAL, !(w->mode == NORMAL)))
            w->anti_skid = 0;
    }
}

/* One control step. */
static void update(struct wbs *w, const struct sensors *s) {
    skid_control(w, s);
    int cmd = command(s);
    switch (w->mode) {
    case NORMAL:
        w->nor_pressure = normal_pressure(w, cmd);
        w->alt_pressure = 0;
        break;
    case ALTERNATE:
        w->nor_pressure = 0;
        w->alt_pressure = alternate_pressure(w, cmd);
        break;
    case EMERGENCY:
        w->nor_pressure = 0;
        /* changed: emergency braking uses the alternate line at a fixed pressure */
        w->alt_pressure = change(500, 250 * 2);
        break;
    default:
        w->nor_pressure = 0;
        w->alt_pressure = 0;
        break;
    }
    /* changed threshold of the brake command report */
    if (w->nor_pressure + w->alt_pressure > change(600, 3 * 200))
        w->brake_cmd = 100;
    else
        w->brake_cmd = (w->nor_pressure + w->alt_pressure) / 6;
    transition(w, s);
}

int main(void) {
    struct sensors in[3];
    penumbra_make_symbolic(in, sizeof in, "sensors");
    struct wbs w = {NORMAL, 0, 0, 0, 0, 0, 0, 0};
    for (int i = 0; i < 3; i++) {
        penumbra_assume(in[i].auto_brake <= 1 && in[i].skid <= 1 && in[i].power <= 1);
        update(&w, &in[i]);
    }
    return w.mode * 16 + (w.brake_cmd > 50);
}
