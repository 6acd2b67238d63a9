"""Independent Python implementation of backoff-lab's discrete storm engine, written from the
README's "The storm model", the rustdoc of src/storm (module, destination, `choose`) and
src/jitter.rs / src/policy.rs only. The retry quota and the circuit breaker follow the README's
"Retry quota", "Circuit breaker" (a run of failures and/or a failure share over a window) and
"Updates" items."""
import math
from collections import deque

M64 = (1 << 64) - 1
MICRO = 1_000_000


def whole(rate, seconds):
    """A rate's whole count by `seconds` (README: the nearest whole, halves up)."""
    return (rate * seconds + MICRO // 2) // MICRO


def rotl(x, k):
    return ((x << k) | (x >> (64 - k))) & M64


class Rng:
    """xoshiro256++ seeded through SplitMix64 (rand_xoshiro's seed_from_u64)."""

    def __init__(self, seed):
        sm = seed & M64
        s = []
        for _ in range(4):
            sm = (sm + 0x9E3779B97F4A7C15) & M64
            z = sm
            z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
            s.append(z ^ (z >> 31))
        self.s = s
        self.draws = 0

    def next_u64(self):
        s = self.s
        result = (rotl((s[0] + s[3]) & M64, 23) + s[0]) & M64
        t = (s[1] << 17) & M64
        s[2] ^= s[0]
        s[3] ^= s[1]
        s[1] ^= s[2]
        s[0] ^= s[3]
        s[2] ^= t
        s[3] = rotl(s[3], 45)
        self.draws += 1
        return result

    def u(self):
        return (self.next_u64() >> 11) * (2.0 ** -53)

    def uniform(self, lo, hi):
        return lo + (hi - lo) * self.u()


def rnd(x):
    """Rust's f64::round (half away from zero)."""
    if x < 0:
        return -rnd(-x)
    f = math.floor(x)
    return int(f) + (1 if x - f >= 0.5 else 0)


def to_us(seconds):
    return rnd(seconds * 1e6)


def to_millionths(rate):
    return rnd(rate * 1e6)


class Policy:
    def __init__(self, base, multiplier, cap, attempts=None, give_up=None, gaps=None, then_every=None):
        self.base, self.mult, self.cap = base, multiplier, cap
        self.gaps_list, self.then_every = gaps, then_every
        if gaps is not None:
            self.base = gaps[0]
            self.mult = 1.0
            self.cap = max(list(gaps) + ([then_every] if then_every else []))
        if attempts is not None:
            self.attempts = attempts
        else:
            elapsed = 0.0
            self.attempts = None
            for retry in range(1, 10000):
                elapsed += self.gap(retry)
                # README: at or past the deadline within a relative 1e-12 (rounding of sums)
                if elapsed >= give_up - give_up * 1e-12:
                    self.attempts = retry + 1
                    break
            assert self.attempts

    def uncapped(self, retry):
        if self.gaps_list is not None:
            i = max(retry, 1) - 1
            if i < len(self.gaps_list):
                return self.gaps_list[i]
            return self.then_every if self.then_every else self.gaps_list[-1]
        return self.base * powi(self.mult, retry - 1)

    def gap(self, retry):
        return min(self.uncapped(retry), self.cap)


def powi(x, n):
    # llvm powi: repeated squaring (compiler-rt __powidf2)
    r = 1.0
    while True:
        if n & 1:
            r *= x
        n >>= 1
        if n == 0:
            break
        x *= x
    return r


class Delivery:
    __slots__ = ("attempt", "processed", "prev_us", "id")

    def __init__(self, did, prev_us):
        self.attempt = 1
        self.processed = False
        self.prev_us = prev_us
        self.id = did


def simulate(sc, opts=None):
    """sc: dict with seconds/rates as floats (as the CLI parses them)."""
    opts = opts or {}
    A = to_millionths(sc["arrivals"])
    traffic = sc["traffic"]
    batch = sc.get("batch")  # (n, at)
    C = to_millionths(sc["capacity"])
    lat = to_us(sc["latency"])
    T = to_us(sc["timeout"])
    o_start, o_len = sc["outage_start"], sc["outage"]
    o_end = o_start + o_len
    pol = sc["policy"]
    mode = sc["mode"]
    factor = sc.get("factor", 0.2)
    budget = sc.get("budget")  # share
    budget_ppm = to_millionths(budget) if budget is not None else None
    W = sc.get("budget_window", 60)
    floor_m = to_millionths(0.5)
    L = to_millionths(sc["rate_limit"]) if sc.get("rate_limit") is not None else None
    pause = sc.get("pause", False)
    if sc.get("resume_rate") is not None:
        P = to_millionths(sc["resume_rate"])
    elif L is not None:
        P = L
    else:
        P = C * min(MICRO, T - lat) // MICRO
        if opts.get("resume_float", True):
            P = to_millionths(sc["capacity"] * min(1.0, sc["timeout"] - sc["latency"]))
        if opts.get("resume_round"):
            P = rnd(C * min(MICRO, T - lat) / MICRO)
    RA = to_us(sc["retry_after"]) if sc.get("retry_after") is not None else None
    RAT = to_us(sc.get("retry_after_threshold", 1.0))
    abandon = sc.get("abandon", False)
    # Retry quota: tokens in whole millionths, the bucket full at second 0.
    quota = sc.get("retry_quota")  # ("aws", S) or ("grpc", M, r)
    if quota is not None and quota[0] == "aws":
        q_size = quota[1] * MICRO
        tokens = q_size
    elif quota is not None:
        q_max = quota[1] * MICRO
        q_half = q_max // 2
        q_ratio = to_millionths(quota[2])
        tokens = q_max
    # Circuit breaker: (N, C, P) or (N, C, P, p, W, M), N None for a share-only breaker; state
    # "closed" with a count and a window, or "open" since second o (half-open after C seconds).
    breaker = sc.get("breaker")
    br_state, br_count, br_opened, br_openings = "closed", 0, None, 0
    br_n = breaker[0] if breaker is not None else None
    br_share = breaker[3] if breaker is not None and len(breaker) > 3 else None
    br_window = breaker[4] if br_share is not None else None
    br_min = breaker[5] if br_share is not None else None
    br_win = deque()  # (second, attempts, failed) of closed seconds since it last closed
    br_a = br_f = 0
    rng = Rng(sc["seed"])
    base_us = to_us(pol.base)
    cap_us = to_us(pol.cap)
    n_att = pol.attempts

    def draw_gap(d):
        k = d.attempt  # retry k follows failed attempt k
        if mode == "decorrelated":
            g = rng.uniform(pol.base, (d.prev_us / 1e6) * 3.0)
            g = min(g, pol.cap)
            gu = to_us(g)
            d.prev_us = gu
            return gu
        ideal = pol.gap(k)
        if mode == "none":
            return to_us(ideal)
        if mode == "full":
            return to_us(rng.uniform(0.0, ideal))
        if mode == "equal":
            return to_us(rng.uniform(ideal / 2.0, ideal))
        if mode == "proportional":
            return to_us(rng.uniform(ideal * (1.0 - factor), ideal * (1.0 + factor)))
        raise ValueError(mode)

    calendar = {}
    held_first = 0
    held_retries = []
    q = 0  # millionths of requests
    backlog = 0
    next_id = 0
    first_hist, retry_hist = [], []
    rows = []
    tot = dict(arrivals=0, delivered=0, exhausted=0, exhausted_after=0, duplicates=0, attempts=0)
    horizon_max = 7 * 86400
    drained_at = emptied_at = None
    exhausted_since_end = False
    drained_by = None
    cum_exhausted = 0
    s = 0
    arrivals_before_outage = 0
    while True:
        # arrivals
        new = 0
        if s < traffic:
            new = whole(A, s + 1) - whole(A, s)
        if batch and batch[1] == s:
            new += batch[0]
        if s == o_start:
            arrivals_before_outage = tot["arrivals"]
        tot["arrivals"] += new
        backlog += new
        first_due = held_first + new
        due = calendar.pop(s, [])
        if opts.get("new_first"):
            retries_due = due + held_retries
        else:
            retries_due = held_retries + due
        in_outage = o_start <= s < o_end
        # sender's bounds
        if pause and in_outage:
            allowance = 0
        else:
            allowance = None
            if L is not None:
                allowance = whole(L, s + 1) - whole(L, s)
            if pause and (s >= o_end or opts.get("pace_always")):
                if opts.get("pace_relative"):
                    r = s - o_end
                    pc = whole(P, r + 1) - whole(P, r)
                else:
                    pc = whole(P, s + 1) - whole(P, s)
                allowance = pc if allowance is None else min(allowance, pc)
            if breaker is not None and br_state == "open":
                if s <= br_opened + breaker[1]:
                    bc = 0
                else:
                    bc = breaker[2]  # half-open: the probes
                allowance = bc if allowance is None else min(allowance, bc)
        sent_first = first_due if allowance is None else min(first_due, allowance)
        held_first = first_due - sent_first
        room = len(retries_due) if allowance is None else allowance - sent_first
        if budget_ppm is not None:
            lo = max(0, s - W + 1)
            F = sum(first_hist[lo:s]) + sent_first
            R = sum(retry_hist[lo:s])
            Wf = min(W, s + 1) if opts.get("budget_floor_partial") else W
            # The share's part cut, the floor's a rate's count over the window, rounded.
            broom = (budget_ppm * F) // MICRO + whole(floor_m, Wf) - R
            room = min(room, max(0, broom))
        if quota is not None and quota[0] == "aws":
            room = min(room, tokens // (10 * MICRO))
        elif quota is not None:
            qroom = (tokens - q_half + MICRO - 1) // MICRO if tokens > q_half else 0
            room = min(room, qroom)
        count = max(0, min(room, len(retries_due)))
        # choose: partial Fisher-Yates
        items = retries_due
        n = len(items)
        if not (pause and in_outage) or opts.get("shuffle_in_pause"):
            i = n - 1
            stop = max(1, n - count)
            while i >= stop:
                j = int(math.floor(rng.u() * (i + 1)))
                items[i], items[j] = items[j], items[i]
                i -= 1
        sent_retries = items[n - count:]
        held_retries = items[: n - count]
        first_hist.append(sent_first)
        retry_hist.append(len(sent_retries))
        deferred = held_first + len(held_retries)
        # destination
        sent = []
        for _ in range(sent_first):
            d = Delivery(next_id, base_us)
            next_id += 1
            sent.append(d)
        sent.extend(sent_retries)
        succ = fail = r429 = dup = exh = 0
        admitted = 0
        failing = []  # (delivery, kind)
        for j, d in enumerate(sent):
            if in_outage:
                fail += 1
                failing.append((d, "lost"))
                continue
            wait_num = q + j * MICRO  # wait = wait_num / C seconds
            if RA is not None and wait_num * MICRO > RAT * C:
                r429 += 1
                failing.append((d, "429"))
                continue
            if wait_num * MICRO + lat * C > T * C:
                fail += 1
                if not abandon:
                    admitted += 1
                    if d.processed:
                        dup += 1
                    d.processed = True
                failing.append((d, "timeout"))
                continue
            succ += 1
            admitted += 1
            if d.processed:
                dup += 1
            d.processed = True
            tot["delivered"] += 1
            backlog -= 1
        if in_outage:
            q = 0
        else:
            q = max(0, q + admitted * MICRO - C)
        for d, kind in failing:
            if d.attempt >= n_att:
                exh += 1
                backlog -= 1
                continue
            g = draw_gap(d)
            if kind == "429":
                w = max(g, RA)
            else:
                w = T + g
            dt = max(1, w // MICRO)
            d.attempt += 1
            calendar.setdefault(s + dt, []).append(d)
        cum_exhausted += exh
        tot["exhausted"] += exh
        if s >= o_end:
            tot["exhausted_after"] += exh
            if exh:
                exhausted_since_end = True
        tot["duplicates"] += dup
        # The quota and the breaker take the second's sends and answers.
        n_sent = sent_first + len(sent_retries)
        failed = fail + r429
        if quota is not None and quota[0] == "aws":
            first_ok = min(succ, sent_first)
            retry_ok = succ - first_ok
            tokens = min(q_size, tokens - 10 * MICRO * len(sent_retries) + MICRO * first_ok
                         + 10 * MICRO * retry_ok)
        elif quota is not None:
            tokens = min(q_max, max(0, tokens - MICRO * failed + q_ratio * succ))
        # "Updates": a second in which nothing was sent does not change the breaker, so the share
        # rule is not checked then either (its window slides on at the next second that sends).
        if breaker is not None and n_sent > 0:
            if br_state == "closed":
                br_count = failed if succ > 0 else br_count + failed
                trip = br_n is not None and br_count >= br_n
                if br_share is not None:
                    br_win.append((s, n_sent, failed))
                    br_a += n_sent
                    br_f += failed
                    while br_win and br_win[0][0] <= s - br_window:
                        _, a0, f0 = br_win.popleft()
                        br_a -= a0
                        br_f -= f0
                    if br_a >= br_min and 100 * br_f >= br_share * br_a:
                        trip = True
                if trip:
                    br_state, br_opened = "open", s
                    br_openings += 1
                    br_win.clear()
                    br_a = br_f = 0
            elif s > br_opened + breaker[1] and n_sent > 0:
                if failed == 0:
                    br_state, br_count = "closed", 0
                else:
                    br_opened = s
                    br_openings += 1
        attempts = sent_first + len(sent_retries)
        tot["attempts"] += attempts
        rows.append(dict(second=s, attempts=attempts, first_attempts=sent_first,
                         retries=len(sent_retries), successes=succ, failures=fail,
                         rejected_429=r429, duplicates=dup, backlog=backlog,
                         queue=q, exhausted=cum_exhausted, deferred=deferred))
        if s >= o_end:
            thr = opts.get("drain_rule", "strict")
            # The README: 0.1% of the deliveries created since the outage began.
            since = tot["arrivals"] - arrivals_before_outage
            if thr == "readme":
                ok = backlog * 1000 <= since or backlog * 2 <= 1
            elif thr == "strict":
                ok = backlog * 1000 < since or backlog * 2 <= 1
            elif thr == "float":
                ok = backlog <= max(0.001 * since, 0.5)
            else:
                ok = backlog == 0
            if drained_at is None and ok:
                drained_at = s
                drained_by = "exhaustion" if exhausted_since_end else "delivery"
            if emptied_at is None and backlog == 0:
                emptied_at = s
        arrivals_over = s + 1 >= traffic and (not batch or batch[1] <= s)
        s += 1
        idle = backlog == 0
        if opts.get("stop_when_idle", True) and not idle and arrivals_over and s - 1 >= o_end:
            idle = held_first == 0 and not held_retries and all(t >= horizon_max for t in calendar)
        if (arrivals_over and s - 1 >= o_end and idle) or s >= horizon_max:
            break
    horizon = s
    # minutes
    minutes = []
    for m0 in range(0, horizon, 60):
        chunk = rows[m0:m0 + 60]
        mrow = dict(minute=m0 // 60 + 1)
        for k in ("attempts", "first_attempts", "retries", "successes", "failures",
                  "rejected_429", "duplicates"):
            mrow[k] = sum(r[k] for r in chunk)
        for k in ("backlog", "queue", "exhausted", "deferred"):
            mrow[k] = chunk[-1][k]
        minutes.append(mrow)
    peak = max(minutes, key=lambda m: m["attempts"]) if minutes else None
    pk = peak["attempts"]
    pm = peak["minute"]
    for m in minutes:
        if m["attempts"] == pk:
            pm = m["minute"]
            break
    summary = dict(arrivals=tot["arrivals"], delivered=tot["delivered"], exhausted=tot["exhausted"],
                   exhausted_after_outage=tot["exhausted_after"], pending=backlog,
                   duplicates=tot["duplicates"], attempts=tot["attempts"],
                   peak_attempts_per_min=pk, peak_minute=pm,
                   peak_multiple=(pk / (sc["arrivals"] * 60) if not opts.get("ratio_units") else pk / (A / MICRO * 60)) if traffic >= 60 and sc["arrivals"] * 60 >= 1 else None,
                   peak_vs_capacity=(pk / (sc["capacity"] * 60) if not opts.get("ratio_units") else pk / (C / MICRO * 60)),
                   outage_end_s=o_end, drained_at_s=drained_at, emptied_at_s=emptied_at,
                   drained_by=drained_by,
                   attempts_per_delivered=(tot["attempts"] / tot["delivered"]) if tot["delivered"] >= 0.5 else None,
                   horizon_s=horizon,
                   breaker_openings=br_openings if breaker is not None else None)
    return rows, minutes, summary, rng.draws
