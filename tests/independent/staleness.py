"""An independent Python implementation of backoff-lab's exact (unjittered) staleness model,
written only from its documentation: the README's "Staleness: how late and how old an outage's
events arrive" (and "Presets and explicit schedules"), `backoff-lab staleness --help`,
`backoff-lab schedule --help` and the `//!`/`///` doc comments of src/staleness/ (and of
src/policy.rs for what a schedule is). It runs generated `--mode none` scenarios and the issue's
worked example through `backoff-lab staleness ... --format json` and compares every number.

    python3 tests/independent/staleness.py [cases] [seed]   (BACKOFF_LAB=path/to/binary)

How each JSON field is compared:
- bit for bit (the JSON prints the shortest string that round-trips an f64, so "exact" here is
  exact): outcome, attempt, outage_s, give_up_s, tolerance_s, longest_delivered_outage_s,
  all_fresh_up_to_s, max_recovery_lag_s, first_event.lag_s and age_s, all_events.*_share,
  lag_max_s, age_max_s, method, samples, seed, the ladder of outages, and the suggestion's
  attempts, base_s, multiplier, max_lag_s, tolerance_s and whether it is null or refused;
- within 1e-9 x max(1, t_n, T) seconds: lag_mean_s, lag_p50_s, lag_p95_s, and the suggestion's
  cap_s, give_up_s, gaps_s and then_every_s (they are solved or summed, and the docs fix no
  order of floating-point operations; the suggestion's give_up_s is documented as T, the
  binary prints its derived schedule's summed last attempt, e.g. 604800.0000000097);
- null exactly where the docs say a number does not apply.
The suggestion's findings (sentences) are not compared.
"""
import json, math, os, random, subprocess, sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BIN = os.environ.get("BACKOFF_LAB") or next(
    (p for p in (os.path.join(ROOT, "target", d, "backoff-lab") for d in ("release", "debug")) if os.path.exists(p)),
    "backoff-lab",
)

MAX_ATTEMPTS = 10_000  # "--attempts <N>  Attempts in all ... (1 to 10000)"
MAX_SPAN = 365 * 86_400.0  # "at most 365 days"
MAX_LISTED_GAPS = 32  # "--gaps must be a list of 1 to 32 gaps (add a tail with then-every for more)"


def at_or_past(t, mark):
    """README: an attempt time is at or past a mark when t >= m - m x 1e-12 (sums of decimal
    gaps land a rounding off their decimal total)."""
    return t >= mark - abs(mark) * 1e-12


def at_or_before(t, mark):
    """README: at or before a mark when t <= m + m x 1e-12."""
    return t <= mark + abs(mark) * 1e-12
# src/staleness/ladder.rs: "1 min, 5 min, 15 min, 30 min, 1 h, 2 h, 4 h, 8 h, 12 h, 24 h, 48 h,
# 72 h and 7 days", plus the give-up time when it is greater than 0 and at most 365 days.
LADDER = [60.0, 300.0, 900.0, 1800.0, 3600.0, 7200.0, 14400.0, 28800.0, 43200.0, 86400.0,
          172800.0, 259200.0, 604800.0]


# --- the schedule -------------------------------------------------------------------------

class Policy:
    """A formula schedule (gap before retry k = min(cap, base x multiplier^(k-1))) or an explicit
    one (the listed gaps, then every `then_every`, else the last listed gap again), stopped after
    `attempts` in all or at the first attempt at or past `give_up`."""

    def __init__(self, base=None, multiplier=None, cap=None, attempts=None, give_up=None, gaps=None, then_every=None):
        self.base, self.mult, self.cap = base, multiplier, cap
        self.gaps, self.then_every = gaps, then_every
        self.attempts_flag, self.give_up_flag = attempts, give_up
        if gaps is not None:  # "Its "base" is the first gap and its "cap" the longest"
            self.base, self.mult = gaps[0], 1.0
            self.cap = max(gaps + ([then_every] if then_every else []))

    def gap(self, retry):
        if self.gaps is not None:
            if retry <= len(self.gaps):
                return self.gaps[retry - 1]
            return self.then_every if self.then_every else self.gaps[-1]
        # "saturating to the cap however large the power grows" (an f64 power overflows to inf)
        return min(self.cap, self.base * powi(self.mult, retry - 1))

    def times(self):
        """t_1 = 0 < t_2 < ... < t_n, or None when the stop rule needs more than 10000 attempts."""
        t = [0.0]
        if self.attempts_flag is not None:
            for k in range(1, self.attempts_flag):
                t.append(t[-1] + self.gap(k))
            return t
        k = 1
        while not at_or_past(t[-1], self.give_up_flag):
            if len(t) >= MAX_ATTEMPTS:
                return None
            t.append(t[-1] + self.gap(k))
            k += 1
        return t


def powi(x, n):
    """x^n by repeated squaring, as storm.py takes it: the docs write `multiplier^(k-1)` and do
    not say how the power is rounded; this is the one rounding that matches the binary's times
    to the last bit for multipliers such as 1.6 (an f64 pow differs by an ulp)."""
    r = 1.0
    while n:
        if n & 1:
            r *= x
        n >>= 1
        if n:
            x *= x
    return r


# Presets, from the README's table and `backoff-lab presets` (their jitter is overridden by
# --mode none).
PRESETS = {
    "article": dict(base=30.0, multiplier=3.0, cap=10800.0, attempts=14),
    "svix": dict(gaps=[5.0, 300.0, 1800.0, 7200.0, 18000.0, 36000.0, 36000.0], attempts=8),
    "standard-webhooks": dict(gaps=[5.0, 300.0, 1800.0, 7200.0, 18000.0, 36000.0, 50400.0, 72000.0, 86400.0], attempts=10),
    "azure-event-grid": dict(gaps=[10.0, 30.0, 60.0, 300.0, 600.0, 1800.0, 3600.0, 10800.0, 21600.0], then_every=43200.0, attempts=11),
    "grpc": dict(base=1.0, multiplier=1.6, cap=120.0, attempts=10),
    "aws-sdk-standard": dict(base=1.0, multiplier=2.0, cap=20.0, attempts=3),
    "aws-sns": dict(base=20.0, multiplier=1.0, cap=20.0, attempts=4),  # a formula (`presets --format json`)
}


# --- the model ----------------------------------------------------------------------------

def quantile(pieces, level):
    """The smallest x with a share `level` of the mixture at or below it; pieces (lo, hi, w)
    are uniform over [lo, hi) with weight w. The distribution function is linear between the
    sorted piece ends."""
    total = sum(w for _, _, w in pieces)
    ends = sorted({e for lo, hi, _ in pieces for e in (lo, hi)})

    def cdf(x):
        s = 0.0
        for lo, hi, w in pieces:
            if x >= hi:
                s += w
            elif x > lo:
                s += w * (x - lo) / (hi - lo)
        return s / total

    prev_x, prev_f = ends[0], cdf(ends[0])
    if prev_f >= level:
        return prev_x
    for x in ends[1:]:
        f = cdf(x)
        if f >= level:
            return prev_x + (level - prev_f) / (f - prev_f) * (x - prev_x)
        prev_x, prev_f = x, f
    return ends[-1]


def outage_answer(t, D, T):
    """One outage of length D under attempt times t (tolerance T or None), as the JSON writes it."""
    n, tn = len(t), t[-1]
    k = next((i for i in range(n) if at_or_past(t[i], D)), None)  # the first t_k >= D (0-based)
    if k is None:  # D > t_n
        first = dict(outcome="exhausted", attempt=None, lag_s=None, age_s=None)
    else:
        first = dict(outcome="delivered", attempt=k + 1, lag_s=max(0.0, t[k] - D), age_s=t[k])
    L = D if at_or_past(tn, D) else tn  # arrivals delivered: u = D - a <= t_n
    ev = dict(delivered_share=L / D, exhausted_share=(D - L) / D)
    if T is not None:
        X = max(x for x in t if at_or_before(x, T))  # max{t_k <= T} (t_1 = 0 at least)
        F = D if at_or_past(X, D) else X
        ev["fresh_share"], ev["stale_share"] = F / D, (L - F) / D
        # README: exhausted and already older than T at recovery: a < D - max(T, t_n)
        R = tn if at_or_past(tn, T) else T  # max(T, t_n), t_n reaching T within rounding
        ev["exhausted_stale_share"] = (D - (D if at_or_past(R, D) else R)) / D
    else:
        ev["fresh_share"] = ev["stale_share"] = ev["exhausted_stale_share"] = None
    if L <= 0:
        ev.update(lag_mean_s=None, lag_p50_s=None, lag_p95_s=None, lag_max_s=None, age_max_s=None)
        return dict(outage_s=D, first_event=first, all_events=ev)
    # attempt k (1-based, k >= 2) delivers u in (t_{k-1}, min(t_k, L)] with lag t_k - u
    j = next(i for i in range(1, n) if at_or_past(t[i], L))
    pieces, integral = [], 0.0
    for i in range(1, j + 1):
        g = t[i] - t[i - 1]
        lo = t[i] - min(t[i], L)  # the lag of the last-arriving event this attempt delivers
        pieces.append((lo, g, g - lo))
        integral += (g * g - lo * lo) / 2
    ev["lag_mean_s"] = integral / L
    ev["lag_p50_s"] = quantile(pieces, 0.5)
    ev["lag_p95_s"] = quantile(pieces, 0.95)
    # "the longest gap among the delivering attempts", a gap being g_j = t_j - t_{j-1}
    # (src/staleness/timeline.rs); max_recovery_lag_s instead is the gap as the policy gives it
    ev["lag_max_s"] = max(t[i] - t[i - 1] for i in range(1, j + 1))
    ev["age_max_s"] = t[j]
    return dict(outage_s=D, first_event=first, all_events=ev)


def suggestion(p, T, R):
    """The derived schedule for tolerance T and allowed lag R: (suggestion dict or None, refused)."""
    if p.gaps is None:
        if p.base > T:  # "A base longer than T is refused"
            return None, True
        cap_r = max(p.base, R)  # "A base longer than R leaves the cap at the base"
        q = Policy(p.base, p.mult, cap_r, give_up=T)
        t = q.times()
        if t is None:
            return None, True
        n = len(t)
        # the smallest cap c with which n attempts reach T: sum_k min(c, u_k) = T, u_k ascending
        u = sorted(q.gap(k) for k in range(1, n))
        c, below = None, 0.0
        for i in range(len(u)):
            # on [u_{i-1}, u_i]: sum = below + (n - 1 - i) c
            cand = (T - below) / (n - 1 - i)
            if cand <= u[i]:
                c = cand
                break
            below += u[i]
        if c is None:
            c = u[-1]
        cap = max(p.base, c)  # a cap is at least the base (`--cap` "at least the base")
        times = Policy(p.base, p.mult, cap, attempts=n).times()
        give = times[-1] if cap > c else T
        if cap > c:
            # "when even that cap lands past T, the schedule ends at its last attempt at or
            # before T" (within a relative 1e-12, as every mark)
            within = [x for x in times if x <= T + T * 1e-12]
            n, give = len(within), within[-1]
        return dict(tolerance_s=T, max_lag_s=R, base_s=p.base, multiplier=p.mult, cap_s=cap, attempts=n,
                    give_up_s=give, gaps_s=None, then_every_s=None), False
    listed = [min(g, R) for g in p.gaps]
    tail = min(p.then_every if p.then_every else p.gaps[-1], R)
    gaps, total = [], 0.0
    while True:
        g = listed[len(gaps)] if len(gaps) < len(listed) else tail
        if total + g >= T:
            gaps.append(T - total)
            total = T
            break
        gaps.append(g)
        total += g
        if len(gaps) > MAX_LISTED_GAPS:
            break
    if total == T and len(gaps) <= MAX_LISTED_GAPS:
        return dict(tolerance_s=T, max_lag_s=R, base_s=gaps[0], multiplier=1.0, cap_s=max(gaps),
                    attempts=len(gaps) + 1, give_up_s=T, gaps_s=gaps, then_every_s=None), False
    # too long for a list: the listed gaps (continued at the tail) up to 32, then "the time
    # left to T in the fewest equal gaps no longer than its last gap cut to R", ending on T;
    # refused past 10000 attempts
    gaps = [listed[i] if i < len(listed) else tail for i in range(MAX_LISTED_GAPS)]
    elapsed = 0.0
    for g in gaps:
        elapsed += g
    left = T - elapsed
    count = max(1.0, math.ceil(left / tail))
    # "the fewest equal gaps", reaching what is left within a relative 1e-12 as every mark
    if count > 1.0 and (count - 1.0) * tail >= left - left * 1e-12:
        count -= 1.0
    tail = left / count
    attempts = len(gaps) + count + 1
    if attempts > 10000:
        return None, True
    q = Policy(gaps=gaps, then_every=tail, attempts=int(attempts))
    t = q.times()
    return dict(tolerance_s=T, max_lag_s=R, base_s=gaps[0], multiplier=1.0, cap_s=max(gaps + [tail]),
                attempts=int(attempts), give_up_s=t[-1], gaps_s=gaps, then_every_s=tail), False


def report(p, outages, T=None, R=None):
    t = p.times()
    if t is None:
        return None
    tn = t[-1]
    gaps = [None] + [p.gap(k) for k in range(1, len(t))]
    if outages is None:
        outages = sorted(set(LADDER + ([tn] if 0 < tn <= MAX_SPAN else [])))
    rep = dict(give_up_s=tn, tolerance_s=T, longest_delivered_outage_s=tn,
               all_fresh_up_to_s=max(x for x in t if x <= T) if T is not None else None,
               max_recovery_lag_s=max(gaps[1:], default=0.0),  # the longest gap drawn
               method="exact", samples=None, seed=None,
               outages=[outage_answer(t, D, T) for D in outages],
               suggestion=None, suggestion_refused=None)
    if R is not None:
        s, refused = suggestion(p, T, R)
        rep["suggestion"] = s
        rep["refused"] = refused
    return rep


# --- scenarios ----------------------------------------------------------------------------

def num(x):
    """A duration argument: a bare number of seconds that parses back to exactly x."""
    s = repr(float(x))
    if "e" in s or "E" in s:
        s = format(x, ".20f").rstrip("0").rstrip(".")
        assert float(s) == x
    return s


def policy_of(f):
    kw = dict(PRESETS[f["preset"]]) if "preset" in f else {}
    for key, name in (("base", "base"), ("multiplier", "multiplier"), ("cap", "cap"), ("then-every", "then_every")):
        if key in f:
            kw[name] = float(f[key])
    if "gaps" in f:
        kw["gaps"] = [float(x) for x in f["gaps"].split(",")]
    if "attempts" in f:
        kw["attempts"], kw["give_up"] = int(f["attempts"]), None
    if "give-up" in f:
        kw["give_up"], kw["attempts"] = float(f["give-up"]), None
    return Policy(**kw)


def pick_duration(rng, t, hi):
    """An outage or tolerance length: often an attempt time exactly (a tie), or a hair off one."""
    r = rng.random()
    pos = [x for x in t if 0 < x <= MAX_SPAN]
    if pos and r < 0.35:
        return rng.choice(pos)
    if pos and r < 0.45:
        x = rng.choice(pos)
        return min(MAX_SPAN, max(0.001, x + rng.choice([-0.001, 0.001, -1.0, 1.0])))
    if r < 0.7:
        return rng.choice([1.0, 30.0, 60.0, 600.0, 3600.0, 14400.0, 86400.0, 172800.0, 604800.0, MAX_SPAN])
    return min(MAX_SPAN, max(0.001, round(rng.uniform(0.001, max(hi, 1.0)), rng.choice([0, 1, 3]))))


def gen(rng):
    f = {}
    kind = rng.random()
    if kind < 0.55:
        base = rng.choice([0.5, 1.0, 2.0, 5.0, 10.0, 30.0, 60.0, 300.0, round(rng.uniform(0.1, 600), 3)])
        f["base"] = num(base)
        f["multiplier"] = num(rng.choice([1.0, 1.5, 2.0, 3.0, 4.0, 10.0, 1.6, 2.5, round(rng.uniform(1, 5), 2)]))
        f["cap"] = num(min(MAX_SPAN, base * rng.choice([1, 2, 10, 100, 360, 1000, round(rng.uniform(1, 500), 2)])))
    elif kind < 0.8:
        gaps = [rng.choice([1.0, 5.0, 20.0, 60.0, 300.0, 1800.0, 7200.0, 36000.0, round(rng.uniform(0.01, 9000), 2)])
                for _ in range(rng.randint(1, 8))]
        f["gaps"] = ",".join(num(g) for g in gaps)
        if rng.random() < 0.4:
            f["then-every"] = num(rng.choice([60.0, 3600.0, 43200.0, round(rng.uniform(0.5, 7200), 1)]))
    else:
        f["preset"] = rng.choice(sorted(PRESETS))
    if "preset" not in f or rng.random() < 0.3:
        if rng.random() < 0.75:
            f["attempts"] = str(rng.choice([1, 2, 3, rng.randint(2, 20), rng.randint(2, 20), rng.randint(2, 20), rng.randint(20, 300)]))
        else:
            f["give-up"] = num(rng.choice([60.0, 3600.0, 86400.0, 604800.0, round(rng.uniform(1, 200000), 1)]))
    p = policy_of(f)
    t = p.times()
    if t is None:  # more than 10000 attempts: the binary refuses; draw another
        return gen(rng)
    if rng.random() < 0.6:
        f["outage"] = num(pick_duration(rng, t, 2 * t[-1]))
    if rng.random() < 0.55:
        f["tolerance"] = num(pick_duration(rng, t, 1.5 * t[-1]))
        if rng.random() < 0.4:
            f["max-lag"] = num(rng.choice([1.0, 10.0, 60.0, 600.0, 3600.0, 10800.0, round(rng.uniform(0.5, 20000), 1)]))
    return f


def args_of(f):
    out = []
    for k, v in f.items():
        out += [f"--{k}", v]
    return out


def expected_of(f):
    p = policy_of(f)
    return report(p, [float(f["outage"])] if "outage" in f else None,
                  float(f["tolerance"]) if "tolerance" in f else None,
                  float(f["max-lag"]) if "max-lag" in f else None)


def run_bin(f):
    c = subprocess.run([BIN, "staleness", "--mode", "none"] + args_of(f) + ["--format", "json"],
                       capture_output=True, text=True)
    if c.returncode != 0:
        return None, c.stderr.strip()
    return json.loads(c.stdout), None


# --- comparison ---------------------------------------------------------------------------

CLOSE = {"lag_mean_s", "lag_p50_s", "lag_p95_s", "cap_s", "give_up_s@suggestion", "gaps_s", "then_every_s"}


def diffs(b, m, scale):
    """Every field where the binary's JSON `b` and the model `m` disagree."""
    out = []
    tol = 1e-9 * max(1.0, scale)

    def cmp(path, bv, mv, close):
        if bv is None or mv is None:
            if bv is not mv:
                out.append(f"{path}: binary {bv!r}, model {mv!r}")
        elif isinstance(mv, list):
            if not isinstance(bv, list) or len(bv) != len(mv):
                out.append(f"{path}: binary {bv!r}, model {mv!r}")
            else:
                for i, (x, y) in enumerate(zip(bv, mv)):
                    cmp(f"{path}[{i}]", x, y, close)
        elif isinstance(mv, str):
            if bv != mv:
                out.append(f"{path}: binary {bv!r}, model {mv!r}")
        elif close:
            if abs(bv - mv) > tol:
                out.append(f"{path}: binary {bv!r}, model {mv!r}")
        elif bv != mv or type(bv) is not type(mv):
            out.append(f"{path}: binary {bv!r}, model {mv!r}")

    for k in ("give_up_s", "tolerance_s", "longest_delivered_outage_s", "all_fresh_up_to_s",
              "max_recovery_lag_s", "method", "samples", "seed"):
        cmp(k, b.get(k, "MISSING"), m[k], False)
    cmp("outage_s[]", [o["outage_s"] for o in b["outages"]], [o["outage_s"] for o in m["outages"]], False)
    for bo, mo in zip(b["outages"], m["outages"]):
        where = f"outage {bo['outage_s']!r}"
        for k, mv in mo["first_event"].items():
            cmp(f"{where} first_event.{k}", bo["first_event"].get(k, "MISSING"), mv, False)
        for k, mv in mo["all_events"].items():
            cmp(f"{where} all_events.{k}", bo["all_events"].get(k, "MISSING"), mv, k in CLOSE)
    if "refused" in m:
        bs, ms = b["suggestion"], m["suggestion"]
        if (bs is None) != (ms is None) or (b["suggestion_refused"] is None) != (not m["refused"]):
            out.append(f"suggestion: binary {bs and 'a schedule' or b['suggestion_refused']!r}, "
                       f"model {ms and 'a schedule' or 'refused'!r}")
        elif ms is not None:
            for k, mv in ms.items():
                cmp(f"suggestion.{k}", bs.get(k, "MISSING"), mv, (k if k != "give_up_s" else k + "@suggestion") in CLOSE)
    return out


# The article's schedule (30 s, x3, 3 h cap, 14 attempts) and the worked example, as
# fixed vectors: the model and the binary must both give these numbers.
ARTICLE = {"preset": "article"}
FIXED = [
    (dict(ARTICLE, outage="14400"), {"first_event.attempt": 8, "first_event.age_s": 21720.0,
                                     "first_event.lag_s": 7320.0}),  # 4 h: 2 h 02 min after, 6 h 02 min old
    (dict(ARTICLE, outage="14400", tolerance="21600"),  # the README's table: 75.8% fresh, 24.2% stale
     {"all_events.fresh_share@3": 0.758, "all_events.stale_share@3": 0.242, "all_fresh_up_to_s": 10920.0}),
    (dict(ARTICLE, outage="600"), {"first_event.attempt": 5, "first_event.lag_s": 600.0}),
    (dict(ARTICLE, outage="3630"), {"first_event.attempt": 6, "first_event.lag_s": 0.0}),
    (dict(ARTICLE, outage="172800"), {"longest_delivered_outage_s": 86520.0, "first_event.outcome": "exhausted",
                                      "all_events.exhausted_share@4": 0.4993}),  # 49.93%
    (dict(ARTICLE, outage="86520"), {"longest_delivered_outage_s": 86520.0, "first_event.attempt": 14,
                                     "first_event.lag_s": 0.0}),
    (dict(base="30", multiplier="3", cap="10800", attempts="14", tolerance="21600"),
     {"all_fresh_up_to_s": 10920.0, "max_recovery_lag_s": 10800.0, "give_up_s": 86520.0}),
    (dict(ARTICLE, tolerance="21600", **{"max-lag": "3600"}), {"suggestion.attempts": 11, "suggestion.cap_s": 3594.0}),
]


def lookup(r, key):
    key, _, digits = key.partition("@")
    node = r
    parts = key.split(".")
    if parts[0] in ("first_event", "all_events"):
        node = r["outages"][0]
    elif parts[0] == "suggestion":
        node, parts = r["suggestion"] or {}, parts[1:]
    for part in parts:
        node = node.get(part) if isinstance(node, dict) else None
    return round(node, int(digits)) if digits and node is not None else node


def main():
    cases = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    rng = random.Random(seed)
    matched = refused = 0
    scenarios = [(f, want) for f, want in FIXED][:cases]
    while len(scenarios) < cases:
        scenarios.append((gen(rng), None))
    for idx, (f, want) in enumerate(scenarios):
        cmd = "backoff-lab staleness --mode none " + " ".join(args_of(f)) + " --format json"
        b, err = run_bin(f)
        m = expected_of(f)
        if b is None:
            # every generated scenario is within the documented bounds: a refusal is a mismatch
            print(f"{idx}: refused: {err}\n    {cmd}")
            refused += 1
            continue
        problems = diffs(b, m, max(m["give_up_s"], m["tolerance_s"] or 0.0))
        for key, value in (want or {}).items():
            for who, r in (("binary", b), ("model", m)):
                if lookup(r, key) != value:
                    problems.append(f"{key}: the {who} gives {lookup(r, key)!r}, the worked example {value!r}")
        if problems:
            for problem in problems:
                print(f"{idx}: {problem}\n    {cmd}")
        else:
            matched += 1
    print(f"staleness: {matched} of {len(scenarios)} scenarios matched"
          + (f" ({refused} refused)" if refused else ""))
    sys.exit(0 if matched == len(scenarios) else 1)


if __name__ == "__main__":
    main()
