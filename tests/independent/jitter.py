"""An independent Python implementation of backoff-lab's schedule, solve-cap, jitter and herd
commands, written from their documentation: README.md ("Command line" and its "How the jitter
numbers are computed", "Presets and explicit schedules", the storm model's "Gaps and randomness"
item for the generator and the uniform draw,
the staleness rules for how a formula gap's power is taken), the commands' `--help`, and the
`//!`/`///` doc comments of src/policy.rs, src/report.rs, src/jitter.rs, src/give_up/ and
src/herd/. It runs generated scenarios through `backoff-lab <command> ... --format json` (and
solve-cap's sentence) and compares every number it computes.

    python3 tests/independent/jitter.py [scenarios] [seed]   (BACKOFF_LAB=path/to/binary)

How fields are compared:
- bit for bit (the JSON prints the shortest string that round-trips an f64): every schedule
  field (rows, give_up_s, first_capped_attempt, attempts_within_window, capped_share,
  uncapped_last_gap_s, the two "exceeds" flags, base_s, multiplier, cap_s, window_s); the jitter
  report's mode, factor, attempts, exact, expected_give_up_s, unjittered_give_up_s, range_s and
  every sampled field (the seeded draws are reproduced: samples, seed, mean_s, std_error_s,
  nearest-rank percentiles, histogram start_s, bin_s and counts); the decorrelated estimate
  (expected_give_up_s, expected_std_error_s, percentiles) for schedules of at most
  DECORRELATED_MAX_ATTEMPTS attempts; every herd field (both histograms, peaks, means, windows);
- the exact percentiles: the README's grid and its moment correction for schedules of at most
  EXACT_GRID_RETRIES retries, within 1e-11 relative (bit for bit in nearly every run; the order
  of float operations shows in the last digits of a few, mostly where a width is narrower than a
  grid cell; VERBOSE=1 counts them);
  longer schedules against the true distribution (normal with the Edgeworth term) within
  W / 8192 (W the spread), the accuracy src/give_up/exact.rs documents for them;
- deadline_safe.attempts: this script's own accurate percentiles (not the binary's grid); where a
  count's percentile lies within four cells of the binary's grid of the deadline ("four cells is
  safe", src/give_up/exact.rs) the binary may answer that count or the next;
- solve-cap: the cap in seconds as the sentence prints it (12 significant digits, in brackets
  beside the cap in words, or the words themselves when they are in seconds), within 1e-11
  relative.
Captions, facts and texts (sentences) are not compared. The first scenarios are fixed vectors:
the README's examples and three cases that once disagreed (a long schedule, a deadline one gap
dominates, a deadline out of range).

The rules are those of README.md "How the jitter numbers are computed". Written first from
what the docs said then, this script found where they were silent (the grid's steps, the herd's
draws) or wrong (long schedules' percentiles drifted 25 grid steps; the deadline sizing took a
sum dominated by one gap as normal; the decorrelated range's top); the README now states each
rule, and RULES lists them as this script implements them.
"""
import json, math, os, random, re, subprocess, sys, time
from statistics import NormalDist
from itertools import accumulate

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BIN = os.environ.get("BACKOFF_LAB") or next(
    (p for p in (os.path.join(ROOT, "target", d, "backoff-lab") for d in ("release", "debug")) if os.path.exists(p)),
    "backoff-lab",
)

# The rules as this script implements them (README.md, "How the jitter numbers are computed").
RULES = [
    "exact distribution: h = W / 8192 over the spread W (the widths summed in retry order), grid "
    "points x_i = i h; F starts as a point mass (all 1) and each width w, in retry order, gives "
    "F'(x_i) = clamp((G(x_i) - G(x_i - w)) / w, 0, 1), G the trapezoid integral of F, "
    "G(x_i - w) = G[j-1] + q h F[j-1] + q^2 h / 2 (F[j] - F[j-1]) (j = i - floor(w/h), q = 1 - frac(w/h)); "
    "percentile = ((i-1) + (p - F[i-1]) / (F[i] - F[i-1])) h, i the first point with F >= p, read through "
    "the moment map W/2 + (x - m) sqrt((sum w^2/12) / v) clamped to [0, W], plus the fixed part",
    "sampled give-up time: fixed part + the sum of width x u in retry order, one draw per gap; mean = the "
    "samples summed in draw order / n; std_error_s = sqrt(sum (x - mean)^2 / (n - 1) / n), 0 for one sample",
    "nearest rank: index ceil(p n) - 1 of the sorted sample (p = 0.05 etc.)",
    "histogram: 60 bins from the smallest sample, width (max - min) / 60, 1 s when every sample is equal; "
    "index floor((x - min) / width), the top in the last bin",
    "decorrelated: previous = the previous gap after the cap; the estimate summarises min(200000, "
    "4e7 / retries) give-up times from seed 0x5eed; a deadline's count a fresh one for each count; with "
    "1 attempt the report is exact; range [(n-1) min(base, cap), sum of t_k = min(cap, 3 t_(k-1)), t_0 = base]",
    "herd: per delivery a U[0,1) failure instant, then one draw per gap even where the window is empty "
    "(mode none), arrival = instant + gaps summed in order; bins hold floor(latest / width) + 2; mean "
    "windows are at least a bin and a second, 2 s with 1 s bins (the README: the failures' second and the "
    "next; max(2, the first gap's reach: its window's upper end, min(cap, 3 base) decorrelated), "
    "max(2, give-up time))",
    "schedule: gaps of an explicit schedule are never 'capped' (capped_share 0, no first_capped_attempt)",
    "schedule: nor are a fixed interval's (multiplier 1 or cap = base), which the README states",
    "a preset's jitter is its own (article: none) unless --mode is given",
]

MAX_ATTEMPTS = 10_000
DAY = 86_400.0
GRID = 8192
LEVELS = (0.01, 0.05, 0.50, 0.95, 0.99)
LEVEL_NAMES = ("p1", "p5", "p50", "p95", "p99")
HISTOGRAM_BINS = 60
MAX_BINS = 1_000_000
MAX_FIRST_RETRY_BINS = 100_000


def at_or_past(t, mark):
    """README: an attempt time is at or past a mark when t >= m - m x 1e-12 (sums of decimal
    gaps land a rounding off their decimal total)."""
    return t >= mark - abs(mark) * 1e-12


def at_or_before(t, mark):
    """README: at or before a mark when t <= m + m x 1e-12."""
    return t <= mark + abs(mark) * 1e-12
DECORRELATED_SAMPLES = 200_000
DECORRELATED_SEED = 0x5EED
EXACT_GRID_RETRIES = 400  # longer schedules: compared with the truth within W / GRID (too slow here)
# "2, 5, 10, 15 or 30 s, 1, 2, 5, 10, 15 or 30 min, 1, 2, 3, 6 or 12 h, then whole days in 1-2-5 steps"
ROUND_WIDTHS = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200]

# `backoff-lab presets --format json` (and the README's table): each preset's parameters and jitter.
PRESETS = {
    "article": dict(base=30.0, multiplier=3.0, cap=10800.0, attempts=14, mode="none"),
    "svix": dict(gaps=[5.0, 300.0, 1800.0, 7200.0, 18000.0, 36000.0, 36000.0], attempts=8, mode="none"),
    "standard-webhooks": dict(gaps=[5.0, 300.0, 1800.0, 7200.0, 18000.0, 36000.0, 50400.0, 72000.0, 86400.0],
                              attempts=10, mode="none"),
    "azure-event-grid": dict(gaps=[10.0, 30.0, 60.0, 300.0, 600.0, 1800.0, 3600.0, 10800.0, 21600.0],
                             then_every=43200.0, attempts=11, mode="none"),
    "grpc": dict(base=1.0, multiplier=1.6, cap=120.0, attempts=10, mode="proportional", factor=0.2),
    "aws-sdk-standard": dict(base=1.0, multiplier=2.0, cap=20.0, attempts=3, mode="full"),
    "aws-sns": dict(base=20.0, multiplier=1.0, cap=20.0, attempts=4, mode="none"),
}


# --- the generator: xoshiro256++ seeded through SplitMix64 -----------------------------------

M64 = (1 << 64) - 1
TWO_M53 = 2.0 ** -53


class Rng:
    def __init__(self, seed):
        sm, s = seed & M64, []
        for _ in range(4):
            sm = (sm + 0x9E3779B97F4A7C15) & M64
            z = sm
            z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
            s.append(z ^ (z >> 31))
        self.s = s

    def u(self):
        """u = (next_u64 >> 11) x 2^-53."""
        s0, s1, s2, s3 = self.s
        x = (s0 + s3) & M64
        r = ((((x << 23) | (x >> 41)) & M64) + s0) & M64
        t = (s1 << 17) & M64
        s2 ^= s0
        s3 ^= s1
        s1 ^= s2
        s0 ^= s3
        s2 ^= t
        s3 = ((s3 << 45) | (s3 >> 19)) & M64
        self.s = [s0, s1, s2, s3]
        return (r >> 11) * TWO_M53


def powi(x, n):
    """x^n by repeated squaring (Rust's f64::powi, as the README's staleness rules say)."""
    r = 1.0
    while True:
        if n & 1:
            r *= x
        n >>= 1
        if n == 0:
            return r
        x *= x


# --- the policy and its schedule --------------------------------------------------------------

class Policy:
    """min(cap, base x multiplier^(k-1)) before retry k, or an explicit list (then every
    `then_every`, else the last listed gap again); stopped after `attempts` or at the first
    attempt at or past `give_up`."""

    def __init__(self, base=None, multiplier=None, cap=None, gaps=None, then_every=None, attempts=None, give_up=None):
        self.gaps, self.then_every = gaps, then_every
        if gaps is not None:  # "Its "base" is the first gap and its "cap" the longest; ... (reported as 1)"
            base, multiplier = gaps[0], 1.0
            cap = max(gaps + ([then_every] if then_every else []))
        self.base, self.mult, self.cap = base, multiplier, cap
        self.give_up = give_up
        if attempts is None:
            t, k = 0.0, 1
            while not at_or_past(t, give_up):
                if k >= MAX_ATTEMPTS:
                    raise ValueError("more than 10000 attempts")
                t += self.gap(k)
                k += 1
            attempts = k
        self.attempts = attempts

    def uncapped(self, k):
        if self.gaps is not None:
            if k <= len(self.gaps):
                return self.gaps[k - 1]
            return self.then_every if self.then_every else self.gaps[-1]
        return self.base * powi(float(self.mult), k - 1)  # inf when it overflows

    def gap(self, k):
        return min(self.cap, self.uncapped(k))

    def with_attempts(self, n):
        p = Policy.__new__(Policy)
        p.__dict__.update(self.__dict__)
        p.attempts = n
        return p

    def gaps_list(self):
        return [self.gap(k) for k in range(1, self.attempts)]


def schedule_report(pol, window):
    rows, t, gaps = [], 0.0, []
    rows.append(dict(attempt=1, gap_s=None, elapsed_s=0.0, capped=False))
    for k in range(1, pol.attempts):
        g = pol.gap(k)
        t += g
        # found: an explicit schedule's gaps are never "capped", though its cap is its longest gap
        # a fixed interval (multiplier 1, or cap = base) has no capped gap: its cap is its interval
        fixed = pol.mult == 1 or pol.base == pol.cap
        capped = pol.gaps is None and not fixed and pol.uncapped(k) >= pol.cap
        rows.append(dict(attempt=k + 1, gap_s=g, elapsed_s=t, capped=capped))
        gaps.append(g)
    give_up = t
    first_capped = next((r["attempt"] for r in rows if r["capped"]), None)
    capped_total = 0.0
    for r in rows[1:]:
        if r["capped"]:
            capped_total += r["gap_s"]
    share = capped_total / give_up if give_up > 0 else 0.0
    if pol.attempts < 2:
        last_uncapped = None
    else:
        u = pol.uncapped(pol.attempts - 1)
        last_uncapped = u if math.isfinite(u) else None
    every = ramp = True
    before = 0.0
    for r in rows[1:]:
        if not r["gap_s"] > before:
            every = False
            if not r["capped"]:
                ramp = False
        before += r["gap_s"]
    return dict(rows=rows, attempts=pol.attempts, base_s=pol.base, multiplier=pol.mult, cap_s=pol.cap,
                give_up_s=give_up, first_capped_attempt=first_capped, window_s=window,
                attempts_within_window=sum(1 for r in rows if r["elapsed_s"] <= window),
                capped_share=share, uncapped_last_gap_s=last_uncapped,
                every_gap_exceeds_previous_total=every, ramp_exceeds_previous_total=ramp)


def solve_cap(base, mult, attempts, deadline):
    """The smallest cap (at least the base) with which `attempts` attempts reach `deadline`;
    None when even no cap falls short. Give-up(cap) is piecewise linear in the cap."""
    u = [base * powi(float(mult), k - 1) for k in range(1, attempts)]
    r = attempts - 1
    if at_or_past(r * base, deadline):
        return base
    if not at_or_past(sum(u), deadline):
        return None
    below = 0.0  # sum of the gaps under the cap
    for j, uj in enumerate(u):  # cap in [u[j-1], u[j]]: j gaps below, r - j at the cap
        if at_or_past(below + (r - j) * uj, deadline):
            return written_cap(base, mult, attempts, deadline, (deadline - below) / (r - j))
        below += uj
    return written_cap(base, mult, attempts, deadline, u[-1])


def written_cap(base, mult, attempts, deadline, cap):
    """The README: the cap is written to the nanosecond under a millisecond, the microsecond
    under a second, else the millisecond (as it is under a nanosecond): the nearest such value
    when, typed back, its attempts reach the deadline, else the next one up."""
    if cap < 1e-9:
        return cap
    per = 1e9 if cap < 1e-3 else 1e6 if cap < 1.0 else 1e3
    nearest = math.floor(cap * per + 0.5)  # Rust's round: halves away from zero

    def reaches(written):
        if written < base:
            return False
        t = 0.0
        for k in range(1, attempts):
            t += min(written, base * powi(float(mult), k - 1))
        return at_or_past(t, deadline)

    return nearest / per if reaches(nearest / per) else (nearest + 1) / per


# --- jitter -------------------------------------------------------------------------------------

def window_of(g, mode, factor):
    """[lo, hi) of a gap whose ideal value is g (jitter.rs's formulas)."""
    if mode == "none":
        return g, g
    if mode == "full":
        return 0.0, g
    if mode == "equal":
        return g / 2, g
    return g * (1 - factor), g * (1 + factor)  # proportional: g x uniform(1 - f, 1 + f)


def windows(pol, mode, factor):
    """[lo, hi) of each retry's gap, for the modes with independent gaps (none for decorrelated)."""
    if mode == "decorrelated":
        return []
    return [window_of(g, mode, factor) for g in pol.gaps_list()]


def decorrelated_max_gaps(pol):
    """The largest gap decorrelated jitter can draw before each retry: min(cap, base x 3^k)."""
    out, prev = [], pol.base
    for _ in range(1, pol.attempts):
        prev = min(pol.cap, prev * 3)
        out.append(prev)
    return out


def draw_give_up(rng, wins, mode, pol):
    """One delivery's give-up time: its gaps drawn in order and summed."""
    t = 0.0
    if mode == "decorrelated":
        prev, base, cap = pol.base, pol.base, pol.cap
        for _ in range(pol.attempts - 1):
            g = base + (prev * 3 - base) * rng.u()
            g = min(cap, g)
            t += g
            prev = g
        return t
    fixed = sum(lo for lo, _ in wins)
    acc = 0.0
    for lo, hi in wins:
        acc += (hi - lo) * rng.u()
    return fixed + acc


def draw_gaps(rng, wins, mode, pol):
    out = []
    if mode == "decorrelated":
        prev, base, cap = pol.base, pol.base, pol.cap
        for _ in range(pol.attempts - 1):
            g = min(cap, base + (prev * 3 - base) * rng.u())
            out.append(g)
            prev = g
        return out
    for lo, hi in wins:  # every gap draws, even from an empty window (see RULES)
        out.append(lo + (hi - lo) * rng.u())
    return out


def nearest_rank(sorted_values, level):
    n = len(sorted_values)
    return sorted_values[max(0, math.ceil(level * n) - 1)]


def summarise(values):
    n = len(values)
    mean = sum(values) / n
    if n > 1:
        var = sum((v - mean) ** 2 for v in values) / (n - 1)
        se = math.sqrt(var / n)
    else:
        se = 0.0
    s = sorted(values)
    return mean, se, {name: nearest_rank(s, lv) for name, lv in zip(LEVEL_NAMES, LEVELS)}, s


def histogram(s):
    lo, hi = s[0], s[-1]
    width = (hi - lo) / HISTOGRAM_BINS if hi > lo else 1.0
    counts = [0] * HISTOGRAM_BINS
    for v in s:
        counts[min(HISTOGRAM_BINS - 1, int((v - lo) / width))] += 1
    return dict(start_s=lo, bin_s=width, counts=counts)


# The exact distribution: a sum of uniforms convolved on a grid.

def convolve_step(F, G, h, w):
    """F' (x_i) = (G(x_i) - G(x_i - w)) / w, G(x_i - w) from the neighbours j-1 and j of the
    point (j = i - floor(w/h)): the exact integral of the piecewise-linear F up to it."""
    N = len(F)
    d = w / h
    k = int(d)
    if k == 0:
        # A width narrower than a cell: the README's mean of F over [x_i - w, x_i].
        half = w / (2 * h)
        return [0.0] + [min(1.0, max(0.0, f - half * (f - f1))) for f1, f in zip(F, F[1:])]
    q = 1 - (d - k)
    a, b = q * h, q * q * h / 2
    Fp = [0.0] + F[:-1]
    Gp = [0.0] + G[:-1]
    gs = [g1 + a * f1 + b * (f - f1) for g1, f, f1 in zip(Gp, F, Fp)]
    gs[0] = 0.0  # x_0 - w < 0, where G is 0
    shifted = [0.0] * N if k >= N else [0.0] * k + gs[:N - k]
    iw = 1 / w
    return [min(1.0, max(0.0, (g - s) * iw)) for g, s in zip(G, shifted)]


def trapezoid(F, h):
    return list(accumulate((h * (f0 + f1) / 2 for f0, f1 in zip(F, F[1:])), initial=0.0))


def convolve(widths, grid, span=None):
    """CDF values of the sum of U(0, w) for w in `widths` (in order) on grid + 1 points
    x_i = i h, h = span / grid (span: the sum of the widths unless given), from a point mass."""
    h = (sum(widths) if span is None else span) / grid
    F = [1.0] * (grid + 1)
    for w in widths:
        F = convolve_step(F, trapezoid(F, h), h, w)
    return F, h


def grid_percentile(F, h, level):
    """The smallest x with F(x) >= level, F linear between grid points."""
    for i, f in enumerate(F):
        if f >= level:
            if i == 0:
                return 0.0
            return ((i - 1) + (level - F[i - 1]) / (f - F[i - 1])) * h
    return None


Z = {lv: NormalDist().inv_cdf(lv) for lv in LEVELS}


def normal_percentile(fixed, widths, level):
    """A percentile of fixed + a sum of U(0, w) from its exact mean and variance, with the
    Edgeworth kurtosis term; returns (value, size of that term) for a tolerance."""
    mean = fixed + sum(w / 2 for w in widths)
    s2 = sum(w * w for w in widths)
    sd = math.sqrt(s2 / 12)
    kurt = -1.2 * sum(w ** 4 for w in widths) / (s2 * s2)
    z = Z[level] if level in Z else NormalDist().inv_cdf(level)
    corr = sd * kurt * (z ** 3 - 3 * z) / 24
    return mean + sd * z + corr, abs(corr)


def exact_figures(pol, mode, factor):
    """expected, percentiles, range, and the tolerance of the percentiles: 0 where this script
    runs the binary's own grid, else W / GRID (the documented accuracy) around the truth."""
    wins = windows(pol, mode, factor)
    fixed = sum(lo for lo, _ in wins)
    widths = [hi - lo for lo, hi in wins if hi - lo > 0]
    expected = sum((lo + hi) / 2 for lo, hi in wins)
    span = [fixed, sum(hi for _, hi in wins)]
    if not widths:
        return expected, {n: fixed for n in LEVEL_NAMES}, span, 0.0
    if len(widths) <= EXACT_GRID_RETRIES:
        F, h = convolve(widths, GRID)
        # exact.rs: the grid's times are read through the linear map that gives the grid's
        # distribution (a uniform density within each cell) the sum's exact mean and variance.
        # (over the grid's total mass, which rounding leaves a hair below 1)
        cells = list(zip(F, F[1:]))
        total = sum(f1 - f0 for f0, f1 in cells)
        gmean = sum((f1 - f0) * (i + 0.5) * h for i, (f0, f1) in enumerate(cells)) / total
        gvar = sum((f1 - f0) * ((i + 0.5) * h - gmean) ** 2 for i, (f0, f1) in enumerate(cells)) / total + h * h / 12
        scale = math.sqrt(sum(w * w / 12 for w in widths) / gvar)
        W = sum(widths)
        mapped = lambda x: min(W, max(0.0, W / 2 + (x - gmean) * scale))
        pct = {n: mapped(grid_percentile(F, h, lv)) + fixed for n, lv in zip(LEVEL_NAMES, LEVELS)}
        # bit for bit mostly; the undocumented order of float operations shows in the last digits
        # of some (a width narrower than a cell, where F' divides a cancellation by w; long runs)
        return expected, pct, span, -1e-11 * max(abs(v) for v in pct.values())
    pct, slack = {}, 0.0
    for n, lv in zip(LEVEL_NAMES, LEVELS):
        pct[n], corr = normal_percentile(fixed, widths, lv)
        slack = max(slack, corr)
    return expected, pct, span, sum(widths) / GRID + slack


def deadline_safe(pol, mode, factor, deadline, level, at_least=1):
    """The smallest attempt count whose `level` percentile reaches `deadline` (None past 10000
    attempts), and each count's percentile with its tolerance {n: (q, tol)}. tol is four cells
    of the binary's grid ("four cells is safe"): a count whose percentile is within it of the
    deadline is a close call the binary may answer either way. The percentiles are this
    script's own accurate ones (give_up_cdf), not the binary's grid."""
    qs, found = {}, None
    if mode == "none":  # the unjittered give-up time is every percentile
        t, n = 0.0, 1
        while True:
            qs[n] = (t, 0.0)
            if at_or_past(t, deadline) and found is None:
                found = n
            if (found and n >= at_least) or n >= MAX_ATTEMPTS:
                return found, qs
            t += pol.gap(n)
            n += 1
    if mode == "decorrelated":  # each count's percentile from its own fixed-seed estimate
        n = 1
        while True:
            if n == 1:
                q = 0.0
            elif level in LEVELS:
                q = decorrelated_estimate(pol.with_attempts(n))[2][LEVEL_NAMES[LEVELS.index(level)]]
            else:
                rng, p = Rng(DECORRELATED_SEED), pol.with_attempts(n)
                q = nearest_rank(sorted(draw_give_up(rng, [], mode, p) for _ in range(DECORRELATED_SAMPLES)), level)
            qs[n] = (q, 0.0)
            if q >= deadline and found is None:
                found = n
            if (found and n >= at_least) or n >= MAX_ATTEMPTS:
                return found, qs
            n += 1
    # P_n(D) falls as n grows: double n until it is at most `level`, then bisect
    lo_found, hi_found = 1, 1
    while give_up_cdf(pol, mode, factor, hi_found, deadline) > level:
        if hi_found == MAX_ATTEMPTS:
            return None, {}
        lo_found, hi_found = hi_found + 1, min(MAX_ATTEMPTS, hi_found * 2)
    while lo_found < hi_found:
        mid = (lo_found + hi_found) // 2
        if give_up_cdf(pol, mode, factor, mid, deadline) <= level:
            hi_found = mid
        else:
            lo_found = mid + 1
    found = lo_found

    def q_tol(n):
        fixed, widths = fixed_and_widths(pol, mode, factor, n)
        return give_up_percentile(pol, mode, factor, n, level), 4 * sum(widths) / GRID

    class Lazy(dict):  # each count's percentile and tolerance, computed when asked for
        def __missing__(self, n):
            if not 1 <= n <= MAX_ATTEMPTS:
                raise KeyError(n)
            self[n] = q_tol(n)
            return self[n]

        def __contains__(self, n):
            return 1 <= n <= MAX_ATTEMPTS

    return found, Lazy()


def fixed_and_widths(pol, mode, factor, n):
    wins = [window_of(pol.gap(k), mode, factor) for k in range(1, n)]
    return sum(lo for lo, _ in wins), [hi - lo for lo, hi in wins if hi > lo]


_HEADS = {}
TAIL_RUN = 64
MODEL_GRID = 2048  # this script's own grid for the deadline's percentiles (see give_up_cdf)


def give_up_cdf(pol, mode, factor, n, x):
    """P(give-up time of n attempts <= x), accurately (not the binary's grid): the widths but a
    trailing run of TAIL_RUN or more equal widths on a fine grid, that run (an Irwin-Hall sum) from
    the normal distribution with its Edgeworth term, the two combined cell by cell."""
    fixed, widths = fixed_and_widths(pol, mode, factor, n)
    y = x - fixed
    if not widths:
        return 1.0 if y >= 0 else 0.0
    m = 1
    while m < len(widths) and widths[-1 - m] == widths[-1]:
        m += 1
    head = tuple(widths if m < TAIL_RUN else widths[:-m])
    if head and head not in _HEADS:
        if len(_HEADS) > 64:
            _HEADS.clear()
        _HEADS[head] = convolve(list(head), MODEL_GRID)
    if m < TAIL_RUN:
        F, h = _HEADS[head]
        i = y / h
        j = int(math.floor(i))
        if j < 0:
            return 0.0
        if j >= len(F) - 1:
            return 1.0
        return F[j] + (i - j) * (F[j + 1] - F[j])
    w = widths[-1]
    mu, sd, kurt = m * w / 2, w * math.sqrt(m / 12), -1.2 / m

    def tail_cdf(t):
        z = (t - mu) / sd
        return 0.5 * (1 + math.erf(z / math.sqrt(2))) - math.exp(-z * z / 2) / math.sqrt(2 * math.pi) * kurt * (z ** 3 - 3 * z) / 24

    if not head:
        return min(1.0, max(0.0, tail_cdf(y)))
    F, h = _HEADS[head]
    total = 0.0
    for i in range(len(F) - 1):
        mass = F[i + 1] - F[i]
        if mass > 0:
            total += mass * tail_cdf(y - (i + 0.5) * h)
    return min(1.0, max(0.0, total))


def give_up_percentile(pol, mode, factor, n, level):
    """The smallest x with P(give-up <= x) >= level, by bisection on give_up_cdf."""
    fixed, widths = fixed_and_widths(pol, mode, factor, n)
    lo, hi = fixed, fixed + sum(widths)
    for _ in range(60):
        mid = (lo + hi) / 2
        if give_up_cdf(pol, mode, factor, n, mid) >= level:
            hi = mid
        else:
            lo = mid
    return hi


def deadline_answer_ok(got, want, qs, deadline):
    """The binary's count `got` is right when it is the model's, or when both it and the count
    before it are close calls (their percentiles within their tolerance of the deadline)."""
    if got == want:
        return True
    if got is None or got < 1 or got not in qs or (got > 1 and got - 1 not in qs):
        return False
    q, tol = qs[got]
    ok_here = q >= deadline - tol
    ok_before = got == 1 or qs[got - 1][0] < deadline + qs[got - 1][1]
    return ok_here and ok_before


_DECORRELATED = {}


def decorrelated_estimate(pol):
    """The decorrelated mode's estimate: DECORRELATED_SAMPLES give-up times drawn with
    DECORRELATED_SEED, summarised as a sample (mean, its standard error, nearest ranks)."""
    key = (pol.base, pol.cap, pol.attempts)
    if key not in _DECORRELATED:
        rng = Rng(DECORRELATED_SEED)
        vals = [draw_give_up(rng, [], "decorrelated", pol) for _ in range(DECORRELATED_SAMPLES)]
        _DECORRELATED[key] = summarise(vals)[:3]
    return _DECORRELATED[key]


def jitter_report(pol, mode, factor, seed, samples, deadline=None, level=0.05, deadline_hint=None):
    out = dict(mode=mode, factor=factor if mode == "proportional" else None, attempts=pol.attempts)
    out["unjittered_give_up_s"] = schedule_report(pol, 1200.0)["give_up_s"]
    wins = windows(pol, mode, factor)
    out["_tol"] = 0.0
    if mode == "decorrelated" and pol.attempts == 1:  # found: no gap, so exact
        out.update(exact=True, expected_give_up_s=0.0, expected_std_error_s=None, range_s=[0.0, 0.0],
                   percentiles={n: 0.0 for n in LEVEL_NAMES})
    elif mode == "decorrelated":
        out["exact"] = False
        # the latest possible give-up: each gap at most three times the largest the previous
        # could be (from the base), and at most the cap
        top, latest = pol.base, 0.0
        for _ in range(pol.attempts - 1):
            top = min(top * 3, pol.cap)
            latest += top
        out["range_s"] = [(pol.attempts - 1) * min(pol.base, pol.cap), latest]
        if pol.attempts <= DECORRELATED_MAX_ATTEMPTS:  # 200,000 draws a retry: short schedules only
            mean, se, pct = decorrelated_estimate(pol)
            out.update(expected_give_up_s=mean, expected_std_error_s=se, percentiles=pct)
    else:
        expected, pct, span, tol = exact_figures(pol, mode, factor)
        out.update(exact=True, expected_give_up_s=expected, expected_std_error_s=None, percentiles=pct,
                   range_s=span, _tol=tol)
    rng = Rng(seed)
    if mode == "none" or (mode == "proportional" and factor == 0):  # every draw is the same sum
        # of the windows, and takes no random number
        vals = [draw_give_up(rng, wins, mode, pol)] * samples
    else:
        vals = [draw_give_up(rng, wins, mode, pol) for _ in range(samples)]
    mean, se, pct, s = summarise(vals)
    out["sampled"] = dict(samples=samples, seed=seed, mean_s=mean, std_error_s=se, percentiles=pct,
                          histogram=histogram(s))
    if deadline is not None:
        n, qs = deadline_safe(pol, mode, factor, deadline, level, at_least=deadline_hint or 1)
        out["deadline_safe"] = dict(deadline_s=deadline, percentile=level, attempts=n)
        out["_deadline_qs"] = qs
    else:
        out["deadline_safe"] = None
    return out


DECORRELATED_MAX_ATTEMPTS = 4


# --- herd ------------------------------------------------------------------------------------

def bin_count(width, latest):
    return int(latest // width) + 2


def bin_width(latest, max_bins):
    for w in ROUND_WIDTHS:
        if bin_count(w, latest) <= max_bins:
            return float(w)
    days = 1
    while True:
        for m in (1, 2, 5):
            w = days * m * DAY
            if bin_count(w, latest) <= max_bins:
                return w
        days *= 10


def herd_report(pol, mode, factor, seed, deliveries):
    wins = windows(pol, mode, factor)
    maxes = decorrelated_max_gaps(pol) if mode == "decorrelated" else [hi for _, hi in wins]
    latest_all = 1.0 + sum(maxes)
    latest_first = 1.0 + (maxes[0] if maxes else 0.0)
    w_all = bin_width(latest_all, MAX_BINS)
    w_first = bin_width(latest_first, MAX_FIRST_RETRY_BINS)
    per = [0] * bin_count(w_all, latest_all)
    first = [0] * bin_count(w_first, latest_first)
    rng = Rng(seed)
    for _ in range(deliveries):
        t = rng.u()
        for k, g in enumerate(draw_gaps(rng, wins, mode, pol)):
            t += g
            per[min(len(per) - 1, int(t // w_all))] += 1
            if k == 0:
                first[min(len(first) - 1, int(t // w_first))] += 1
    retries = deliveries * (pol.attempts - 1)
    out = dict(deliveries=deliveries, mode=mode, seed=seed, bin_s=w_all, per_second=per,
               first_retry_per_second=first)
    peak = max(per) / w_all
    mean = retries / max(w_all + 1.0, latest_all - 1.0)  # the schedule's reach, at least a bin and a second
    out.update(peak_per_s=peak, mean_per_s=mean, peak_to_mean=peak / mean if mean else 0.0)
    fpeak = max(first) / w_first
    window = max(w_first + 1.0, latest_first - 1.0)  # the first gap's reach, at least a bin and a second
    fmean = deliveries / window
    out["first_retry"] = dict(peak_per_s=fpeak, mean_per_s=fmean, peak_to_mean=fpeak / fmean if fmean else 0.0,
                              window_s=window, bin_s=w_first)
    return out


# --- scenarios ---------------------------------------------------------------------------------

def tidy(seconds):
    """A generated length rounded to the millisecond, or to 3 significant digits below 0.1 s
    (a base of microseconds has deadlines of microseconds)."""
    return round(seconds, 3) if seconds >= 0.1 else float(f"{seconds:.3g}")


def plain(seconds):
    """Seconds as a flag in plain decimals: the CLI reads no exponent (1e-06); 20 places keep the float."""
    return repr(seconds) if "e" not in repr(seconds) else f"{seconds:.20f}".rstrip("0")


def fmt_dur(rng, seconds):
    """A duration as a flag: bare seconds, or a whole unit form when it is one."""
    if 0 < seconds < 0.01:  # microseconds: a bare number would be written with an exponent
        return f"{round(seconds * 1e6)}us"
    if rng.random() < 0.3:
        for unit, size in (("d", DAY), ("h", 3600.0), ("m", 60.0), ("s", 1.0)):
            if seconds >= size and seconds % size == 0:
                return f"{int(seconds // size)}{unit}"
    return repr(seconds) if seconds != int(seconds) else str(int(seconds))


def gen(rng):
    """A scenario: the policy's flags, the Policy they mean, and the jitter/herd settings."""
    f = {}
    kind = rng.random()
    size = rng.random()
    if size < 0.55:
        attempts = rng.randint(1, 12)
    elif size < 0.88:
        attempts = rng.randint(13, 60)
    elif size < 0.95:
        attempts = rng.randint(61, 300)
    else:
        attempts = rng.randint(301, 3000)
    stop_by_give_up = rng.random() < 0.3
    decimal = False
    if kind < 0.15:  # a preset, maybe with the stop rule or (formula presets) the cap overridden
        name = rng.choice(sorted(PRESETS))
        p = dict(PRESETS[name])
        f["preset"] = name
        if rng.random() < 0.4:
            p["attempts"] = attempts
            f["attempts"] = str(attempts)
        elif rng.random() < 0.2:  # a deadline instead of the preset's attempt count
            p["give_up"] = float(rng.choice([60, 3600, 86400, rng.randint(1, 500000)]))
            f["give-up"] = fmt_dur(rng, p["give_up"])
            p["attempts"] = None
        if "gaps" not in p and rng.random() < 0.3:
            p["cap"] = float(max(p["base"], rng.choice([5, 60, 3600, rng.randint(1, 100000)])))
            f["cap"] = fmt_dur(rng, p["cap"])
        try:
            pol = Policy(base=p.get("base"), multiplier=p.get("multiplier"), cap=p.get("cap"), gaps=p.get("gaps"),
                         then_every=p.get("then_every"), attempts=p["attempts"], give_up=p.get("give_up"))
        except ValueError:  # a deadline past what 10000 attempts reach: draw another scenario
            return gen(rng)
        mode = p["mode"]
        factor = p.get("factor", 0.2)
        return f, pol, mode, factor
    if kind < 0.7:
        base = rng.choice([0.5, 1.0, 5.0, 30.0, 60.0, 600.0, 3600.0, float(rng.randint(1, 5000)),
                           round(rng.uniform(0.1, 100), 3)])
        if rng.random() < 0.04:  # first retries spread over more than 99,999 s: wider bins
            base = rng.choice([DAY, 30 * DAY, 300 * DAY, float(rng.randint(50000, 5000000))])
            attempts = min(attempts, 6)
        elif rng.random() < 0.05:  # gaps far narrower than a grid cell before a long tail
            base = rng.choice([1e-6, 1e-4, 0.002])
        mult = rng.choice([1.0, 1.5, 1.6, 2.0, 3.0, 10.0, 1000.0, round(rng.uniform(1, 5), 4)])
        cap = rng.choice([base, base * rng.randint(1, 1000), 10800.0, 86400.0, 365 * DAY,
                          round(base * rng.uniform(1, 50), 3)])
        cap = min(max(cap, base), 365 * DAY)
        if rng.random() < 0.08:  # a decimal interval: its sums land a rounding off decimal deadlines
            base = cap = rng.choice([0.1, 0.3, 0.7, 0.03, 0.007])
            mult, stop_by_give_up, decimal = 1.0, True, True
        f.update(base=fmt_dur(rng, base), multiplier=repr(mult), cap=fmt_dur(rng, cap))
        spec = dict(base=base, multiplier=mult, cap=cap)
    else:
        gaps = [rng.choice([1.0, 5.0, 30.0, 300.0, 3600.0, float(rng.randint(1, 86400)), round(rng.uniform(0.5, 600), 2)])
                for _ in range(rng.randint(1, 8))]
        f["gaps"] = ",".join(fmt_dur(rng, g) for g in gaps)
        spec = dict(gaps=gaps)
        if rng.random() < 0.5:
            te = rng.choice([60.0, 3600.0, 43200.0, float(rng.randint(1, 20000))])
            f["then-every"] = fmt_dur(rng, te)
            spec["then_every"] = te
    probe = Policy(attempts=attempts, **spec)
    if stop_by_give_up and attempts >= 2:
        # a deadline between two attempts, or exactly on one, or on its decimal value (an
        # attempt a rounding off it is at it: README)
        t = schedule_report(probe, 1200.0)["rows"]
        a, b = t[attempts - 2]["elapsed_s"], t[attempts - 1]["elapsed_s"]
        give_up = rng.choice([b, round(b, 6), round(a + (b - a) * rng.uniform(0.01, 1), 3)])
        if decimal:
            give_up = round(b, 6)
        if 0 < give_up <= 365 * DAY:
            f["give-up"] = plain(give_up)
            pol = Policy(give_up=give_up, **spec)
        else:
            f["attempts"] = str(attempts)
            pol = probe
    else:
        f["attempts"] = str(attempts)
        pol = probe
    modes = ["none", "full", "equal", "proportional"] + ([] if "gaps" in spec else ["decorrelated"])
    mode = rng.choice(modes)
    factor = rng.choice([0.0, 0.2, 0.5, 1.0, round(rng.uniform(0, 1), 3)])
    return f, pol, mode, factor


def flags_of(f):
    out = []
    for k, v in f.items():
        out += [f"--{k}", v]
    return out


def run(args):
    c = subprocess.run([BIN] + args, capture_output=True, text=True)
    if c.returncode != 0:
        return None, c.stderr.strip()
    return c.stdout, None


def compare(path, b, m, problems, tol=0.0):
    if isinstance(m, dict):
        if not isinstance(b, dict):
            problems.append(f"{path}: binary {b!r}, model {m!r}")
            return
        for k, v in m.items():
            if k.startswith("_"):
                continue
            compare(f"{path}.{k}" if path else k, b.get(k, "MISSING"), v, problems, tol)
    elif isinstance(m, list):
        if not isinstance(b, list) or len(b) != len(m):
            shown = lambda x: x if not isinstance(x, list) or len(x) < 12 else f"[{len(x)} items] {x[:6]}..."
            problems.append(f"{path}: binary {shown(b)!r}, model {shown(m)!r}")
            return
        for i, (x, y) in enumerate(zip(b, m)):
            compare(f"{path}[{i}]", x, y, problems, tol)
            if len(problems) > 40:
                return
    elif m is None or isinstance(m, (bool, str)):
        if b != m or type(b) is not type(m):
            problems.append(f"{path}: binary {b!r}, model {m!r}")
    else:
        if isinstance(b, bool) or not isinstance(b, (int, float)):
            problems.append(f"{path}: binary {b!r}, model {m!r}")
        elif tol:
            if abs(b - m) > tol:
                problems.append(f"{path}: binary {b!r}, model {m!r} (tolerance {tol:.3g})")
        elif b != m:
            problems.append(f"{path}: binary {b!r}, model {m!r}")


def check_scenario(rng, fixed=None):
    """Runs one scenario (generated, or a fixed vector: its flags, options and the numbers the
    README prints for it) through every command; returns the disagreements and the commands."""
    f, pol, mode, factor, opts, want = fixed or (gen(rng) + ({}, {}))
    pick = lambda key, make: opts[key] if key in opts else make()
    problems, cmds = [], []
    base = flags_of(f)
    seen = {}
    COVER[f"mode {mode}"] = COVER.get(f"mode {mode}", 0) + 1
    kind = "preset" if "preset" in f else "gaps" if "gaps" in f else "formula"
    COVER[kind] = COVER.get(kind, 0) + 1
    size = "1" if pol.attempts == 1 else "2-12" if pol.attempts <= 12 else "13-60" if pol.attempts <= 60 else \
        "61-400" if pol.attempts <= 401 else "402-10000"
    COVER[f"attempts {size}"] = COVER.get(f"attempts {size}", 0) + 1

    # schedule
    window = pick("window", lambda: rng.choice([None, 60.0, 1200.0, 3600.0, float(rng.randint(1, 200000))]))
    args = ["schedule"] + base + (["--window", repr(window)] if window else []) + ["--format", "json"]
    cmds.append(args)
    out, err = run(args)
    if out is None:
        problems.append(f"schedule refused: {err}")
    else:
        b = seen["schedule"] = json.loads(out)
        m = schedule_report(pol, window or 1200.0)
        compare("schedule", b, m, problems)

    # solve-cap (formula policies)
    if pol.gaps is None and pol.attempts >= 2 and "preset" not in f:
        n = pol.attempts
        deadline = pick("solve", lambda: rng.choice([pol.base * (n - 1) * rng.uniform(0.5, 3), float(rng.randint(1, 1000000)),
                                                     schedule_report(pol, 1200.0)["give_up_s"]]))
        deadline = tidy(min(deadline, 365 * DAY))
        if deadline > 0:
            args = ["solve-cap", "--base", plain(pol.base), "--multiplier", repr(pol.mult), "--attempts", str(n),
                    "--give-up", plain(deadline)]
            cmds.append(args)
            out, err = run(args)
            cap_want = solve_cap(pol.base, pol.mult, n, deadline)
            key = "solve-cap " + ("unreachable" if cap_want is None else "the base" if cap_want == pol.base else "solved")
            COVER[key] = COVER.get(key, 0) + 1
            if cap_want is not None and cap_want > 365 * DAY:
                cap_want = "refused"
            if out is None:
                if cap_want not in (None, "refused"):
                    problems.append(f"solve-cap refused ({err}), model {cap_want!r}")
            elif cap_want is None:
                problems.append(f"solve-cap: binary {out.strip()!r}, model: unreachable")
            else:
                # In brackets beside the words, or alone when the words are in seconds.
                got = re.search(r"\(([0-9.]+) s\)", out) or re.match(r"A cap of ([0-9.]+) s[ ,]", out)
                seen["solve-cap"] = {"cap_s": float(got.group(1))} if got else {}
                if not got or cap_want == "refused" or abs(float(got.group(1)) - cap_want) > 1e-11 * cap_want:
                    problems.append(f"solve-cap: binary {out.strip()!r}, model {cap_want!r}")

    # jitter
    seed = pick("seed", lambda: rng.choice([0, 1, 42, rng.randint(0, 2**32), rng.randint(0, 2**53 - 1)]))
    retries = max(1, pol.attempts - 1)
    samples = pick("samples", lambda: max(1, min(rng.choice([1, 2, 10, 100, 1000, 3000]), 30000 // retries)))
    if mode == "none" or (mode == "proportional" and factor == 0):
        # Nothing is drawn: --seed and --samples are refused, and the report counts the default
        # (1,000,000 give-up times, or the most 2,000,000,000 drawn gaps allow) with seed 0.
        seed, samples = 0, min(1_000_000, max(1, int(2e9 / max(1, pol.attempts - 1))))
        jargs = ["jitter"] + base
    else:
        jargs = ["jitter"] + base + ["--seed", str(seed), "--samples", str(samples)]
    if "preset" not in f or rng.random() < 0.5:
        jargs += ["--mode", mode]
        if mode == "proportional" and (factor != 0.2 or rng.random() < 0.5):
            jargs += ["--factor", repr(factor)]
    deadline = level = None
    if "deadline" in opts:
        deadline, level = opts["deadline"], opts.get("percentile", 5)
        jargs += ["--deadline", plain(deadline), "--percentile", str(level)]
        level = level / 100
    elif mode == "decorrelated" and pol.attempts <= DECORRELATED_MAX_ATTEMPTS and rng.random() < 0.15:
        deadline = tidy(pol.base * rng.uniform(0.5, 3))  # a few attempts: 200,000 draws each
        level = rng.choice([1, 5, 50, 95])
        jargs += ["--deadline", plain(deadline), "--percentile", str(level)]
        level = level / 100
    elif mode != "decorrelated" and rng.random() < 0.35:
        g1 = pol.gap(1) if pol.attempts > 1 else pol.base
        deadline = min(tidy(g1 * rng.uniform(0.5, 40)), 365 * DAY)
        level = rng.choice([1, 5, 5, 10, 50, 95])
        jargs += ["--deadline", plain(deadline), "--percentile", str(level)]
        level = level / 100
    jargs += ["--format", "json"]
    cmds.append(jargs)
    out, err = run(jargs)
    if "refused_naming" in opts:  # the README: "one line naming the flag, the value and the valid range"
        if out is not None or opts["refused_naming"] not in err:
            problems.append(f"jitter: expected a refusal naming {opts['refused_naming']}, got {(err or out)[:200]!r}")
    elif out is None and deadline is not None and "what even 10000 attempts reach" in err:
        if deadline_safe(pol, mode, factor, deadline, level)[0] is not None:
            problems.append(f"jitter refused: {err}")
    elif out is None:
        problems.append(f"jitter refused: {err}")
    else:
        b = seen["jitter"] = json.loads(out)
        if deadline is not None:
            COVER["jitter --deadline"] = COVER.get("jitter --deadline", 0) + 1
        if "--give-up" in base:
            COVER["--give-up"] = COVER.get("--give-up", 0) + 1
        hint = (b.get("deadline_safe") or {}).get("attempts")
        m = jitter_report(pol, mode, factor, seed, samples, deadline, level,
                          deadline_hint=min(hint, MAX_ATTEMPTS) if isinstance(hint, int) else None)
        if m["deadline_safe"] and m["deadline_safe"]["attempts"] is None:
            problems.append("jitter: the model finds no count up to 10000 attempts, the binary answers")
        pct_tol = abs(m["_tol"])
        bp, mp = b.get("percentiles"), m.pop("percentiles", None)
        if mp is not None and m["_tol"] <= 0 and isinstance(bp, dict):  # the binary's own grid
            key = "exact percentiles bit for bit" if bp == mp else "exact percentiles within 1e-11"
            COVER[key] = COVER.get(key, 0) + 1
        if mp is not None:
            compare("jitter.percentiles", bp, mp, problems, pct_tol)
        if mode == "decorrelated" and "expected_give_up_s" not in m:
            b.pop("expected_give_up_s", None)
        ds_b, ds_m = b.get("deadline_safe"), m.get("deadline_safe")
        if ds_m and ds_b and ds_b.get("attempts") != ds_m["attempts"] and \
                deadline_answer_ok(ds_b.get("attempts"), ds_m["attempts"], m["_deadline_qs"], deadline):
            m["deadline_safe"] = dict(ds_m, attempts=ds_b["attempts"])  # a close call (see deadline_safe)
        compare("jitter", b, m, problems)

    # herd
    deliveries = pick("deliveries", lambda: max(1, min(rng.choice([1, 5, 100, 1000, 3000]), 30000 // retries)))
    hargs = ["herd"] + base + ["--seed", str(seed), "--deliveries", str(deliveries)]
    if "--mode" in jargs:
        hargs += jargs[jargs.index("--mode"):jargs.index("--mode") + 2]
        if "--factor" in jargs:
            hargs += ["--factor", jargs[jargs.index("--factor") + 1]]
    hargs += ["--format", "json"]
    if pol.attempts >= 2:
        cmds.append(hargs)
        out, err = run(hargs)
        if out is None:
            problems.append(f"herd refused: {err}")
        else:
            b = seen["herd"] = json.loads(out)
            for key, width in (("herd: schedule bins wider than 1 s", b.get("bin_s")),
                               ("herd: first-retry bins wider than 1 s", (b.get("first_retry") or {}).get("bin_s"))):
                if width and width > 1:
                    COVER[key] = COVER.get(key, 0) + 1
            compare("herd", b, herd_report(pol, mode, factor, seed, deliveries), problems)
    for key, value in want.items():  # the README's own numbers for the fixed vectors
        node = seen
        for part in key.split("."):
            node = node.get(part) if isinstance(node, dict) else None
        if node != value:
            problems.append(f"{key}: the binary gives {node!r}, the README {value!r}")
    return problems, cmds


COVER = {}


def article(mode="none", **kw):
    return Policy(base=30.0, multiplier=3.0, cap=10800.0, **kw), mode


# The README's worked examples, run first: the binary and this model must both give them.
FIXED = [
    ({"base": "30s", "multiplier": "3", "cap": "3h", "give-up": "24h"}, *article(give_up=86400.0), 0.2,
     {"window": None, "solve": 86400.0, "seed": 42, "samples": 1000, "deliveries": 1000},
     {"schedule.give_up_s": 86520.0, "schedule.attempts": 14, "schedule.first_capped_attempt": 8,
      "schedule.attempts_within_window": 5, "schedule.uncapped_last_gap_s": 15943230.0}),
    ({"base": "30s", "multiplier": "3", "cap": "3h", "attempts": "14"}, *article("full", attempts=14), 0.2,
     {"window": None, "solve": 86400.0, "seed": 42, "samples": 1000, "deliveries": 1000, "deadline": 86400.0},
     {"solve-cap.cap_s": 10782.858, "jitter.expected_give_up_s": 43260.0, "jitter.deadline_safe.attempts": 27,
      "herd.first_retry.peak_per_s": 44.0, "herd.first_retry.window_s": 30.0}),
    ({"preset": "svix"}, Policy(gaps=PRESETS["svix"]["gaps"], attempts=8), "none", 0.2, {"seed": 1, "samples": 10},
     {"schedule.give_up_s": 99305.0}),
    # Decorrelated jitter at its cap, with the estimate and a deadline (200,000 draws per count).
    ({"base": "10", "multiplier": "2", "cap": "20", "attempts": "4"}, Policy(base=10.0, multiplier=2.0, cap=20.0, attempts=4),
     "decorrelated", 0.2, {"seed": 7, "samples": 100, "deliveries": 100, "deadline": 45.0, "percentile": 50}, {}),
    # A long schedule: the exact percentiles against the documented accuracy (W / 8192 of the truth).
    ({"base": "10", "multiplier": "2", "cap": "100", "attempts": "5000"}, Policy(base=10.0, multiplier=2.0, cap=100.0, attempts=5000),
     "full", 0.2, {"seed": 1, "samples": 6, "deliveries": 6}, {}),
    # A deadline past 400 attempts whose give-up time one long gap dominates (not normal).
    ({"gaps": "3600,5", "attempts": "3"}, Policy(gaps=[3600.0, 5.0], attempts=3),
     "full", 0.2, {"seed": 1, "samples": 10, "deliveries": 10, "deadline": 1300.0, "percentile": 5}, {}),
    # "one line naming the flag": a deadline out of range.
    ({"base": "10", "multiplier": "2", "cap": "100", "attempts": "3"}, Policy(base=10.0, multiplier=2.0, cap=100.0, attempts=3),
     "full", 0.2, {"seed": 1, "samples": 10, "deliveries": 10, "deadline": 400 * DAY, "refused_naming": "--deadline"}, {}),
]


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    rng = random.Random(seed)
    matched = 0
    started = time.time()
    for idx in range(n):
        problems, cmds = check_scenario(rng, FIXED[idx] if idx < len(FIXED) else None)
        if problems:
            print(f"{idx}: {len(problems)} disagreement(s)")
            for c in cmds:
                print("    backoff-lab " + " ".join(c))
            for p in problems[:12]:
                print(f"  {p}")
            if len(problems) > 12:
                print(f"  ... and {len(problems) - 12} more")
        else:
            matched += 1
    if os.environ.get("VERBOSE"):
        print(f"({time.time() - started:.1f} s)")
        print("coverage: " + ", ".join(f"{k} {v}" for k, v in sorted(COVER.items())))
    if os.environ.get("VERBOSE"):
        print("rules (README.md, 'How the jitter numbers are computed'):")
        for g in RULES:
            print(f"  - {g}")
    print(f"jitter: {matched} of {n} scenarios match")
    sys.exit(0 if matched == n else 1)


if __name__ == "__main__":
    main()
