"""Runs generated storm scenarios through the backoff-lab binary and through storm.py, an
independent Python implementation written only from the documented model (the README's "The
storm model" and the rustdoc of src/storm), and compares every per-second row, every minute and
every summary field exactly.

    python3 tests/independent/compare.py [scenarios] [seed]   (BACKOFF_LAB=path/to/binary)
"""
import csv, io, json, os, random, subprocess, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from storm import Policy, simulate  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BIN = os.environ.get("BACKOFF_LAB") or next(
    (p for p in (os.path.join(ROOT, "target", d, "backoff-lab") for d in ("release", "debug")) if os.path.exists(p)),
    "backoff-lab",
)


def rate_value(text):
    if "/" in text:
        amount, unit = text.split("/")
        per = {"s": 1.0, "min": 60.0, "h": 3600.0}[unit]
        return float(amount) / per
    return float(text)


def gen(rng, idx, rng2=None):
    f = {}
    arr_choice = rng.random()
    if arr_choice < 0.5:
        arr = str(rng.randint(1, 20))
    else:
        arr = f"{rng.randint(60, 1200)}/min"
    f["arrivals"] = arr
    f["traffic"] = rng.choice([30, 45, 60, 120, 300, 600, 900, 1200, 1800, rng.randint(1, 1800)])
    f["outage"] = rng.choice([0, 10, 30, 60, 120, 300, 600, 1200, rng.randint(0, 1200)])
    f["outage-start"] = rng.choice([0, 0, rng.randint(0, 300)])
    cap = rng.choice([str(rng.randint(3, 100)), f"{rng.randint(180, 6000)}/min"])
    f["capacity"] = cap
    f["latency"] = rng.choice(["0", "0.05", "0.3", f"{rng.randint(0, 300) / 1000}"])
    f["timeout"] = rng.choice(["1", "2", "5", "10", f"{rng.randint(1000, 10000) / 1000}"])
    pk = rng.random()
    if pk < 0.3:
        f["policy"] = "fixed"
        f["interval"] = str(rng.choice([1, 2, 5, 10, 30, 60, rng.randint(1, 120)]))
    elif pk < 0.8:
        f["policy"] = "exponential"
        base = rng.choice([1, 2, 5, 10, 30])
        f["base"] = str(base)
        f["multiplier"] = str(rng.choice([1, 1.5, 2, 3, 1.6]))
        f["cap"] = str(base * rng.choice([1, 4, 10, 60, 100]))
    else:
        f["policy"] = "exponential"
        gaps = [rng.choice([1, 2, 5, 10, 30, 60, 300]) for _ in range(rng.randint(1, 5))]
        f["gaps"] = ",".join(map(str, gaps))
        if rng.random() < 0.5:
            f["then-every"] = str(rng.choice([5, 60, 600]))
    if rng.random() < 0.85:
        f["attempts"] = str(rng.randint(1, 12))
    else:
        f["give-up"] = str(rng.choice([60, 300, 600, 1800]))
    mode = rng.choice(["none", "full", "equal", "proportional", "none", "full", "equal", "proportional", "decorrelated"])
    f["mode"] = mode
    if mode == "proportional" and rng.random() < 0.7:
        f["factor"] = str(rng.choice([0.1, 0.2, 0.5, 1]))
    f["seed"] = str(rng.randint(0, 2 ** 40))
    if rng.random() < 0.3:
        f["budget"] = f"{rng.choice([1, 5, 10, 20, 50])}%"
        if rng.random() < 0.4:
            f["budget-window"] = str(rng.choice([1, 10, 30, 120]))
    if rng.random() < 0.3:
        f["rate-limit"] = rng.choice([str(rng.randint(2, 40)), f"{rng.randint(100, 2000)}/min"])
    if rng.random() < 0.3:
        f["pause"] = True
        if rng.random() < 0.4:
            f["resume-rate"] = rng.choice([str(rng.randint(1, 40)), f"{rng.randint(60, 2000)}/min"])
    if rng.random() < 0.3:
        f["retry-after"] = str(rng.choice([1, 5, 30, 60, 0.5]))
        if rng.random() < 0.5:
            f["retry-after-threshold"] = str(rng.choice([0.2, 0.5, 1, 2, 5]))
    if rng.random() < 0.3:
        f["batch"] = str(rng.randint(1, 2000))
        f["batch-at"] = str(rng.randint(0, 600))
    if rng.random() < 0.35:
        f["abandon"] = True
    if rng.random() < 0.3:
        if rng.random() < 0.5:
            f["retry-quota"] = "aws"
            if rng.random() < 0.6:
                f["retry-quota-tokens"] = str(rng.choice([10, 20, 50, 500, rng.randint(10, 2000)]))
        else:
            f["retry-quota"] = "grpc"
            if rng.random() < 0.6:
                f["retry-quota-tokens"] = str(rng.choice([1, 3, 10, 100, rng.randint(1, 1000)]))
            if rng.random() < 0.6:
                f["retry-quota-ratio"] = str(rng.choice([0.1, 0.5, 1, 0.05, rng.randint(1, 1000) / 1000]))
    if rng.random() < 0.3:
        f["breaker-failures"] = str(rng.choice([1, 3, 5, 20, 100, rng.randint(1, 500)]))
        if rng.random() < 0.6:
            f["breaker-cooldown"] = str(rng.choice([1, 5, 30, 120, rng.randint(1, 600)]))
        if rng.random() < 0.6:
            f["breaker-probes"] = str(rng.choice([1, 2, 5, 20, rng.randint(1, 100)]))
    if rng2 is not None:
        # The failure-share rule, drawn from a generator of its own so that the draws above (and
        # the scenarios without a share breaker) stay as they were: beside a run-of-failures
        # breaker, or alone.
        share = rng2.random() < (0.4 if "breaker-failures" in f else 0.15)
        if share:
            f["breaker-share"] = f"{rng2.choice([1, 5, 10, 25, 50, 75, 90, 100, rng2.randint(1, 100)])}%"
            if rng2.random() < 0.7:
                f["breaker-window"] = str(rng2.choice([1, 2, 5, 10, 30, 60, 120, 600, 3600, rng2.randint(1, 3600)]))
            if rng2.random() < 0.7:
                f["breaker-min-attempts"] = str(rng2.choice([1, 2, 5, 10, 20, 50, 100, 300, 1000000, rng2.randint(1, 500)]))
            if "breaker-failures" not in f:
                if rng2.random() < 0.6:
                    f["breaker-cooldown"] = str(rng2.choice([1, 5, 30, 120, rng2.randint(1, 600)]))
                if rng2.random() < 0.6:
                    f["breaker-probes"] = str(rng2.choice([1, 2, 5, 20, rng2.randint(1, 100)]))
    return f


def to_args(f):
    args = []
    for k, v in f.items():
        if v is True:
            args.append(f"--{k}")
        else:
            args += [f"--{k}", str(v)]
    return args


def to_scenario(f):
    sc = dict(arrivals=rate_value(f["arrivals"]), traffic=int(f["traffic"]),
              capacity=rate_value(f["capacity"]), latency=float(f["latency"]),
              timeout=float(f["timeout"]), outage=int(f["outage"]),
              outage_start=int(f["outage-start"]), mode=f["mode"], seed=int(f["seed"]))
    if "factor" in f:
        sc["factor"] = float(f["factor"])
    att = int(f["attempts"]) if "attempts" in f else None
    gu = float(f["give-up"]) if "give-up" in f else None
    if f["policy"] == "fixed":
        iv = float(f["interval"])
        sc["policy"] = Policy(iv, 1.0, iv, att, gu)
    elif "gaps" in f:
        gaps = [float(x) for x in f["gaps"].split(",")]
        te = float(f["then-every"]) if "then-every" in f else None
        sc["policy"] = Policy(None, 1.0, None, att, gu, gaps, te)
    else:
        sc["policy"] = Policy(float(f["base"]), float(f["multiplier"]), float(f["cap"]), att, gu)
    if "budget" in f:
        sc["budget"] = float(f["budget"].rstrip("%")) / 100.0
        sc["budget_window"] = int(f.get("budget-window", 60))
    if "rate-limit" in f:
        sc["rate_limit"] = rate_value(f["rate-limit"])
    if f.get("pause"):
        sc["pause"] = True
        if "resume-rate" in f:
            sc["resume_rate"] = rate_value(f["resume-rate"])
    if "retry-after" in f:
        sc["retry_after"] = float(f["retry-after"])
    sc["retry_after_threshold"] = float(f.get("retry-after-threshold", 1.0))
    if "batch" in f:
        sc["batch"] = (int(f["batch"]), int(f["batch-at"]))
    sc["abandon"] = bool(f.get("abandon"))
    if f.get("retry-quota") == "aws":
        sc["retry_quota"] = ("aws", int(f.get("retry-quota-tokens", 500)))
    elif f.get("retry-quota") == "grpc":
        sc["retry_quota"] = ("grpc", int(f.get("retry-quota-tokens", 10)),
                             float(f.get("retry-quota-ratio", 0.1)))
    if "breaker-failures" in f or "breaker-share" in f:
        n = int(f["breaker-failures"]) if "breaker-failures" in f else None
        sc["breaker"] = (n, int(f.get("breaker-cooldown", 30)), int(f.get("breaker-probes", 1)))
        if "breaker-share" in f:
            sc["breaker"] += (int(f["breaker-share"].rstrip("%")), int(f.get("breaker-window", 30)),
                              int(f.get("breaker-min-attempts", 100)))
    return sc


def run_bin(f):
    base = [BIN, "storm", "--engine", "discrete"] + to_args(f)
    c = subprocess.run(base + ["--format", "csv", "--per-second"], capture_output=True, text=True)
    if c.returncode != 0:
        return None, c.stderr.strip()
    rows = list(csv.DictReader(io.StringIO(c.stdout)))
    j = subprocess.run(base + ["--format", "json"], capture_output=True, text=True)
    return (rows, json.loads(j.stdout)), None


def queue_fmt(q):
    return q  # refined below after observing the binary


FIELDS = ["attempts", "first_attempts", "retries", "successes", "failures", "rejected_429",
          "duplicates", "backlog", "queue", "exhausted", "deferred"]


def compare(f, opts=None, verbose=True):
    out, err = run_bin(f)
    if out is None:
        return "refused", err
    brows, bjson = out
    rows, minutes, summary, _ = simulate(to_scenario(f), opts)
    first = None
    for i in range(max(len(rows), len(brows))):
        if i >= len(rows) or i >= len(brows):
            first = (i, "row count", len(brows), len(rows))
            break
        b, m = brows[i], rows[i]
        for k in FIELDS:
            mv = queue_fmt(m[k]) if k == "queue" else m[k]
            bv = b[k]
            if k == "queue":
                t = (m[k] + 500) // 1000
                mq = f"{t // 1000}.{t % 1000:03d}".rstrip("0").rstrip(".")
                if mq != bv:
                    first = (i, k, bv, m[k] / 1e6)
                    break
            elif str(mv) != bv:
                first = (i, k, bv, mv)
                break
        if first:
            break
    sdiff = {}
    for k, v in bjson["summary"].items():
        mv = summary.get(k, "MISSING")
        if isinstance(v, float) and isinstance(mv, (int, float)):
            if abs(v - mv) > 1e-9 * max(1, abs(v)):
                sdiff[k] = (v, mv)
        elif v != mv:
            sdiff[k] = (v, mv)
    mdiff = None
    for bm, mm in zip(bjson["minutes"], minutes):
        for k in bm:
            if k == "queue":
                if abs(float(bm[k]) - mm[k] / 1e6) > 6e-4:
                    mdiff = (bm["minute"], k, bm[k], mm[k]); break
            elif bm[k] != mm[k]:
                mdiff = (bm["minute"], k, bm[k], mm[k]); break
        if mdiff:
            break
    if len(bjson["minutes"]) != len(minutes) and not mdiff:
        mdiff = ("count", len(bjson["minutes"]), len(minutes))
    return ("ok" if not first and not sdiff and not mdiff else "diff"), (first, sdiff, mdiff)


if __name__ == "__main__":
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 30
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    rng = random.Random(seed)
    rng2 = random.Random(f"breaker-share {seed}")
    ok = refused = 0
    shares = shares_ok = shares_alone = 0
    for idx in range(n):
        f = gen(rng, idx, rng2)
        status, info = compare(f)
        refused += status == "refused"
        if "breaker-share" in f:
            shares += 1
            shares_ok += status == "ok"
            shares_alone += "breaker-failures" not in f
        print(idx, status, " ".join(f"--{k}" + ("" if v is True else f" {v}") for k, v in f.items()))
        if status == "ok":
            ok += 1
        else:
            print("   ", info)
    print("matched", ok, "of", n, f"({refused} refused by the binary;", shares,
          f"with a failure-share breaker, {shares_alone} of them without --breaker-failures,",
          shares_ok, "of those matched)")
    # A scenario the binary refuses is not a mismatch; anything else is.
    sys.exit(0 if ok + refused == n else 1)
