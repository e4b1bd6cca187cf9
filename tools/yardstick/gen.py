#!/usr/bin/env python3
"""Deterministic generator of the NDJSON event lines `healthlog append` reads.

Models one Apple Watch + iPhone user (plus a few third-party apps) over
several years: a time-ordered stream of HealthKit samples with a realistic
type mix, metadata, sources, devices, UTC and offset dates, and deletes of
earlier live samples.

    gen.py --events 1000000 --seed 1 --out /tmp/events.ndjson --types

Pure stdlib. Lines are built with format strings (no json.dumps) and written
in large chunks; ~10M events take a couple of minutes.
Same --events/--seed/--years/--deletes always gives byte-identical output.
"""
import argparse
import random
import sys
import time
from array import array

# --- type mix ---------------------------------------------------------------
# Weights are per "draw". A blood-pressure draw emits 3 lines (systolic,
# diastolic, then the correlation), so correlation lines are ~0.2% of lines
# and their members another ~0.4%. Weights are normalised.
HR, STEPS, ACTIVE, DIST, BASAL, GLUCOSE, SLEEP, WORKOUT, BP, DELETE = range(10)
MIX = [
    (HR, 45.0), (STEPS, 25.0), (ACTIVE, 15.0), (DIST, 8.0), (BASAL, 3.0),
    (GLUCOSE, 0.5), (SLEEP, 1.0), (WORKOUT, 0.1), (BP, 0.2), (DELETE, 3.0),
]

T_HR = "HKQuantityTypeIdentifierHeartRate"
T_STEPS = "HKQuantityTypeIdentifierStepCount"
T_ACTIVE = "HKQuantityTypeIdentifierActiveEnergyBurned"
T_DIST = "HKQuantityTypeIdentifierDistanceWalkingRunning"
T_BASAL = "HKQuantityTypeIdentifierBasalEnergyBurned"
T_GLUCOSE = "HKQuantityTypeIdentifierBloodGlucose"
T_SLEEP = "HKCategoryTypeIdentifierSleepAnalysis"
T_WORKOUT = "HKWorkoutTypeIdentifier"
T_SYS = "HKQuantityTypeIdentifierBloodPressureSystolic"
T_DIA = "HKQuantityTypeIdentifierBloodPressureDiastolic"
T_BP = "HKCorrelationTypeIdentifierBloodPressure"
TYPE_NAMES = [T_HR, T_STEPS, T_ACTIVE, T_DIST, T_BASAL, T_GLUCOSE, T_SLEEP,
              T_WORKOUT, T_SYS, T_DIA, T_BP]
TYPE_CODE = {n: i for i, n in enumerate(TYPE_NAMES)}

SLEEP_VALUES = [  # (constant name, weight)
    ("HKCategoryValueSleepAnalysisInBed", 10), ("HKCategoryValueSleepAnalysisAsleepCore", 45),
    ("HKCategoryValueSleepAnalysisAsleepDeep", 15), ("HKCategoryValueSleepAnalysisAsleepREM", 20),
    ("HKCategoryValueSleepAnalysisAwake", 8), ("HKCategoryValueSleepAnalysisAsleepUnspecified", 2),
]
WORKOUTS = [  # (activity, weight, has distance, kcal per minute)
    ("HKWorkoutActivityTypeWalking", 35, True, 4.5), ("HKWorkoutActivityTypeRunning", 25, True, 11.0),
    ("HKWorkoutActivityTypeCycling", 15, True, 8.0),
    ("HKWorkoutActivityTypeTraditionalStrengthTraining", 12, False, 6.0),
    ("HKWorkoutActivityTypeYoga", 6, False, 3.5), ("HKWorkoutActivityTypeSwimming", 4, True, 9.0),
    ("HKWorkoutActivityTypeHighIntensityIntervalTraining", 3, False, 12.0),
]
TZ = "Europe/London"

# Hardware and software change over the years ("eras"): the user upgrades
# watch and phone, and OS versions move on.
WATCH_ERAS = [("Watch5,4", "7.0"), ("Watch5,4", "8.3"), ("Watch6,2", "9.1"),
              ("Watch6,2", "10.0"), ("Watch7,4", "10.4"), ("Watch7,4", "11.0")]
PHONE_ERAS = [("iPhone12,1", "14.2"), ("iPhone12,1", "15.4"), ("iPhone14,2", "16.1"),
              ("iPhone14,2", "17.0"), ("iPhone15,3", "17.4"), ("iPhone15,3", "18.0")]


def device(name, model, hw, sw):
    return (f'<<HKDevice>, name:{name}, manufacturer:Apple Inc., model:{model}, '
            f'hardware:{hw}, software:{sw}>')


# Per era: the `"source":...` tail fragment (source, sourceVersion, device).
WATCH_SRC = [f',"source":"Apple Watch","sourceVersion":"{sw}","device":"{device("Apple Watch", "Watch", hw, sw)}"'
             for hw, sw in WATCH_ERAS]
PHONE_SRC = [f',"source":"iPhone","sourceVersion":"{sw}","device":"{device("iPhone", "iPhone", hw, sw)}"'
             for hw, sw in PHONE_ERAS]
APP_GLUCOSE = ',"source":"OneTouch Reveal","sourceVersion":"5.6.1"'
APP_BP = ',"source":"Withings Health Mate","sourceVersion":"6.3.2","device":"BPM Connect"'
APP_SLEEP = ',"source":"Pillow – Sleep Tracker","sourceVersion":"5.2"'  # en dash: UTF-8 on purpose

# "HH:MM:SS" for every second of a day; date strings are cached per day.
HMS = [f"{h:02d}:{m:02d}:{s:02d}" for h in range(24) for m in range(60) for s in range(60)]
T0_MS = 1567296000000  # 2019-09-01T00:00:00Z


class Dates:
    """Fast ISO 8601 formatting of integer epoch milliseconds.

    Three styles, as different writers produce them:
      utc(t)        2021-03-04T05:06:07Z      (Apple Watch: UTC, whole seconds)
      utc_ms(t)     2021-03-04T05:06:07.123Z  (UTC with milliseconds)
      local(t, ms)  2021-07-04T06:06:07+01:00 (iPhone / apps: local time with
                    the UK offset, +00:00 in winter, +01:00 in summer)
    """

    def __init__(self):
        self.days = {}

    def _day(self, day):
        d = self.days.get(day)
        if d is None:
            tm = time.gmtime(day * 86400)
            # crude UK summer time: April..October (good enough for a benchmark)
            d = (f"{tm.tm_year:04d}-{tm.tm_mon:02d}-{tm.tm_mday:02d}T", 4 <= tm.tm_mon <= 10)
            self.days[day] = d
        return d

    def utc(self, t):
        day, ms = divmod(t, 86400000)
        return self._day(day)[0] + HMS[ms // 1000] + "Z"

    def utc_ms(self, t):
        day, ms = divmod(t, 86400000)
        return f"{self._day(day)[0]}{HMS[ms // 1000]}.{ms % 1000:03d}Z"

    def local(self, t, with_ms):
        summer = self._day(t // 86400000)[1]
        if summer:
            t += 3600000
        day, ms = divmod(t, 86400000)
        frac = f".{ms % 1000:03d}" if with_ms else ""
        return f"{self._day(day)[0]}{HMS[ms // 1000]}{frac}{'+01:00' if summer else '+00:00'}"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--events", type=int, default=1000, help="number of lines to write (exact)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", default="-", help="output file (default: stdout)")
    ap.add_argument("--years", type=float, default=4.0, help="time span covered by the events")
    ap.add_argument("--deletes", type=float, default=3.0,
                    help="weight (percent) of delete lines; 0 disables deletes")
    ap.add_argument("--types", action="store_true", help="print per-type counts to stderr")
    a = ap.parse_args()

    n = a.events
    rng = random.Random(a.seed)
    rnd, rint, gauss, getbits = rng.random, rng.randrange, rng.gauss, rng.getrandbits
    mix = [(k, (a.deletes if k == DELETE else w)) for k, w in MIX]
    kinds = [k for k, w in mix if w > 0]
    cum, acc = [], 0.0
    for k, w in mix:
        if w > 0:
            acc += w
            cum.append(acc)

    span_ms = int(a.years * 365.25 * 86400000)
    mean_gap = span_ms / max(n, 1)  # events are spread evenly-ish over the span
    n_eras = len(WATCH_ERAS)
    dates = Dates()
    utc, utc_ms, local = dates.utc, dates.utc_ms, dates.local

    # Live samples that may later be deleted: the UUID as two 64-bit halves
    # plus a type code (compact: ~17 bytes per sample even at 10M events).
    # Correlations and their members are never deleted (avoids cascade rules).
    live_hi, live_lo, live_ty = array("Q"), array("Q"), array("B")
    counts = [0] * len(TYPE_NAMES)
    del_counts = [0] * len(TYPE_NAMES)
    n_deletes = 0

    def sec(t):
        # Writers of whole-second dates: move the clock up to the next whole
        # second, so that truncating the milliseconds never breaks time order.
        return -(-t // 1000) * 1000

    def new_uuid():
        # RFC 4122 version 4 layout (version nibble 4, variant 10xx), upper case.
        hi = (getbits(64) & 0xFFFFFFFFFFFF0FFF) | 0x0000000000004000
        lo = (getbits(64) & 0x3FFFFFFFFFFFFFFF) | 0x8000000000000000
        return hi, lo

    def fmt_uuid(hi, lo):
        h = f"{hi:016X}{lo:016X}"
        return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"

    out = sys.stdout if a.out == "-" else open(a.out, "w", encoding="utf-8", newline="\n")
    buf = []
    t = T0_MS
    written = 0
    CHUNK = 1 << 16

    def add(code, hi, lo, line_tail, deletable=True):
        # line_tail: everything after the uuid, starting with ',"type":...'
        nonlocal written
        buf.append(f'{{"op":"add","uuid":"{fmt_uuid(hi, lo)}"{line_tail}}}\n')
        counts[code] += 1
        written += 1
        if deletable:
            live_hi.append(hi)
            live_lo.append(lo)
            live_ty.append(code)

    while written < n:
        # Draw kinds in bulk (much faster than one choice per line).
        for kind in rng.choices(kinds, cum_weights=cum, k=min(CHUNK, n - written)):
            if written >= n:
                break
            t += int(mean_gap * 2.0 * rnd())  # uniform gap, mean = mean_gap
            era = min(n_eras - 1, (t - T0_MS) * n_eras // span_ms)
            hi, lo = new_uuid()

            if kind == DELETE and live_hi:
                # Delete a uniformly chosen earlier live sample; swap-remove
                # keeps the live list dense so no UUID is ever deleted twice.
                i = rint(len(live_hi))
                dhi, dlo, dty = live_hi[i], live_lo[i], live_ty[i]
                live_hi[i], live_lo[i], live_ty[i] = live_hi[-1], live_lo[-1], live_ty[-1]
                live_hi.pop(); live_lo.pop(); live_ty.pop()
                buf.append(f'{{"op":"delete","uuid":"{fmt_uuid(dhi, dlo)}"}}\n')
                written += 1
                n_deletes += 1
                del_counts[dty] += 1
            elif kind == HR or kind == DELETE:  # nothing to delete yet: a heart rate instead
                v = int(gauss(74, 13))
                v = 40 if v < 40 else (190 if v > 190 else v)
                if rnd() < 0.7:
                    t = sec(t)
                    s = utc(t)
                else:
                    s = utc_ms(t)
                r = rnd()
                meta = (f',"metadata":{{"HKMetadataKeyHeartRateMotionContext":{1 if r < 0.5 else 0 if r < 0.7 else 2}}}'
                        if r < 0.8 else "")
                add(HR, hi, lo, f',"type":"{T_HR}","start":"{s}","end":"{s}","value":{v},"unit":"count/min"'
                                f'{WATCH_SRC[era]}{meta}')
            elif kind == STEPS:
                d = 60000 + rint(540000)
                t = sec(t)
                if rnd() < 0.6:
                    src, s, e = PHONE_SRC[era], local(t, False), local(t + d, False)
                else:
                    src, s, e = WATCH_SRC[era], utc(t), utc(t + d)
                meta = ',"metadata":{"HKMetadataKeyWasUserEntered":true}' if rnd() < 0.005 else ""
                add(STEPS, hi, lo, f',"type":"{T_STEPS}","start":"{s}","end":"{e}","value":{10 + rint(1400)},'
                                   f'"unit":"count"{src}{meta}')
            elif kind == ACTIVE:
                d = 30000 + rint(60000)
                s, e = utc_ms(t), utc_ms(t + d)
                add(ACTIVE, hi, lo, f',"type":"{T_ACTIVE}","start":"{s}","end":"{e}","value":{0.05 + 4.0 * rnd() ** 2:.3f},'
                                    f'"unit":"kcal"{WATCH_SRC[era]}')
            elif kind == DIST:
                d = 60000 + rint(540000)
                t = sec(t)
                if rnd() < 0.6:
                    src, s, e = PHONE_SRC[era], local(t, False), local(t + d, False)
                else:
                    src, s, e = WATCH_SRC[era], utc(t), utc(t + d)
                add(DIST, hi, lo, f',"type":"{T_DIST}","start":"{s}","end":"{e}","value":{0.001 + 0.8 * rnd() ** 2:.4f},'
                                  f'"unit":"km"{src}')
            elif kind == BASAL:
                d = 60000 + rint(1740000)
                s, e = utc_ms(t), utc_ms(t + d)
                add(BASAL, hi, lo, f',"type":"{T_BASAL}","start":"{s}","end":"{e}","value":{d / 60000 * (0.9 + 0.3 * rnd()):.3f},'
                                   f'"unit":"kcal"{WATCH_SRC[era]}')
            elif kind == GLUCOSE:
                s = local(t, True)
                v = gauss(105, 22)
                v = 45.0 if v < 45 else v
                meal = 1 + rint(2)  # HKBloodGlucoseMealTime preprandial / postprandial
                manual = "true" if rnd() < 0.4 else "false"
                add(GLUCOSE, hi, lo, f',"type":"{T_GLUCOSE}","start":"{s}","end":"{s}","value":{v:.1f},"unit":"mg/dL"'
                                     f'{APP_GLUCOSE},"metadata":{{"HKMetadataKeyWasUserEntered":{manual},'
                                     f'"HKMetadataKeyBloodGlucoseMealTime":{meal}}}')
            elif kind == SLEEP:
                d = 120000 + rint(3480000)
                name = rng.choices(SLEEP_VALUES_N, cum_weights=SLEEP_CUM)[0]
                if rnd() < 0.75:
                    t = sec(t)
                    src, s, e = WATCH_SRC[era], utc(t), utc(t + d)
                else:
                    src, s, e = APP_SLEEP, local(t, True), local(t + d, True)
                add(SLEEP, hi, lo, f',"type":"{T_SLEEP}","start":"{s}","end":"{e}","value":"{name}"'
                                   f'{src},"metadata":{{"HKMetadataKeyTimeZone":"{TZ}"}}')
            elif kind == WORKOUT:
                act, _, has_dist, kcal_min = WORKOUTS[rng.choices(range(len(WORKOUTS)), cum_weights=WORKOUT_CUM)[0]]
                dur = 900.0 + rint(4500000) / 1000.0
                s, e = local(t, True), local(t + int(dur * 1000), True)
                kcal = dur / 60 * kcal_min * (0.8 + 0.4 * rnd())
                totals = f'"energy":{{"value":{kcal:.1f},"unit":"kcal"}}'
                if has_dist:
                    totals += f',"distance":{{"value":{dur / 60 * kcal_min / 60 * (0.8 + 0.4 * rnd()):.2f},"unit":"km"}}'
                indoor = "true" if rnd() < 0.3 else "false"
                add(WORKOUT, hi, lo, f',"type":"{T_WORKOUT}","start":"{s}","end":"{e}","activity":"{act}",'
                                     f'"duration":{dur:.3f},"totals":{{{totals}}}{WATCH_SRC[era]},"metadata":{{'
                                     f'"HKMetadataKeyIndoorWorkout":{indoor},"HKMetadataKeyTimeZone":"{TZ}",'
                                     f'"HKAverageMETs":"{kcal_min * 0.9:.2f} kcal/hr·kg"}}')
            elif kind == BP:
                t = sec(t)
                if n - written < 3:  # no room for the 3 lines: a short step sample instead
                    s = utc(t)
                    add(STEPS, hi, lo, f',"type":"{T_STEPS}","start":"{s}","end":"{s}","value":{1 + rint(20)},'
                                       f'"unit":"count"{WATCH_SRC[era]}')
                    continue
                s = local(t, False)
                sys_v = 100 + rint(50)
                dia_v = 60 + rint(min(35, sys_v - 65))
                manual = rnd() < 0.3
                src = PHONE_SRC[era] if manual else APP_BP
                meta = ',"metadata":{"HKMetadataKeyWasUserEntered":true}' if manual else ""
                shi, slo = hi, lo
                dhi, dlo = new_uuid()
                add(TYPE_CODE[T_SYS], shi, slo, f',"type":"{T_SYS}","start":"{s}","end":"{s}","value":{sys_v},'
                                                f'"unit":"mmHg"{src}{meta}', deletable=False)
                add(TYPE_CODE[T_DIA], dhi, dlo, f',"type":"{T_DIA}","start":"{s}","end":"{s}","value":{dia_v},'
                                                f'"unit":"mmHg"{src}{meta}', deletable=False)
                chi, clo = new_uuid()
                add(TYPE_CODE[T_BP], chi, clo, f',"type":"{T_BP}","start":"{s}","end":"{s}",'
                                               f'"objects":["{fmt_uuid(shi, slo)}","{fmt_uuid(dhi, dlo)}"]{src}{meta}',
                    deletable=False)
        out.write("".join(buf))
        buf.clear()

    if out is not sys.stdout:
        out.close()
    else:
        out.flush()
    if a.types:
        w = sys.stderr.write
        for code, name in enumerate(TYPE_NAMES):
            w(f"{name}\t{counts[code]}\tdeleted\t{del_counts[code]}\n")
        w(f"delete\t{n_deletes}\n")
        w(f"total lines\t{written}\tlive samples\t{sum(counts) - n_deletes}\n")


SLEEP_VALUES_N = [v for v, _ in SLEEP_VALUES]
SLEEP_CUM = [sum(w for _, w in SLEEP_VALUES[:i + 1]) for i in range(len(SLEEP_VALUES))]
WORKOUT_CUM = [sum(w[1] for w in WORKOUTS[:i + 1]) for i in range(len(WORKOUTS))]

if __name__ == "__main__":
    main()
