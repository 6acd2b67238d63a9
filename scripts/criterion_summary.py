#!/usr/bin/env python3
"""Summarize a `cargo bench` run: per criterion group, each benchmark's median and its ratio to
the group's benchmark whose name starts with `baseline`.

    scripts/criterion_summary.py [target/criterion] [--since EPOCH_SECONDS]

Reads <dir>/<group>/<bench>/new/estimates.json (median.point_estimate, in ns). With --since,
results older than that time (left behind by benchmarks not run this time) are skipped. Then
prints <dir>/storm_events_per_second.json, the discrete storm engine's throughput that
benches/core.rs measures outside criterion's timing, when it is there (and new enough).
"""

import argparse
import json
from pathlib import Path


def human(ns):
    for unit, size in (("s", 1e9), ("ms", 1e6), ("µs", 1e3)):
        if ns >= size:
            return f"{ns / size:.3f} {unit}"
    return f"{ns:.1f} ns"


def read_groups(root, since):
    groups = {}
    for estimates in sorted(root.glob("*/*/new/estimates.json")):
        if since is not None and estimates.stat().st_mtime < since:
            continue
        bench_dir = estimates.parent.parent
        meta = bench_dir / "new" / "benchmark.json"
        if meta.exists():
            info = json.loads(meta.read_text())
            group, name = info["group_id"], info["function_id"] or bench_dir.name
        else:
            group, name = bench_dir.parent.name, bench_dir.name
        median = json.loads(estimates.read_text())["median"]["point_estimate"]
        groups.setdefault(group, []).append((name, median))
    return groups


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("root", nargs="?", default="target/criterion", type=Path)
    parser.add_argument("--since", type=float, help="skip results written before this epoch time")
    args = parser.parse_args()

    groups = read_groups(args.root, args.since)
    if not groups:
        newer = f" written since {args.since:.0f}" if args.since is not None else ""
        raise SystemExit(f"criterion_summary: no results under {args.root}{newer}")
    width = max(len(name) for benches in groups.values() for name, _ in benches) + 2
    for group, benches in groups.items():
        baselines = [median for name, median in benches if name.startswith("baseline")]
        baseline = baselines[0] if baselines else None
        print(f"{group}")
        # The baseline first, then the others in the order criterion's directories sort.
        for name, median in sorted(benches, key=lambda b: not b[0].startswith("baseline")):
            ratio = f"{median / baseline:10.3f}x" if baseline else "  (no baseline)"
            print(f"  {name:<{width}}{human(median):>12}{ratio}")
    print_events_per_second(args.root / "storm_events_per_second.json", args.since)


def print_events_per_second(path, since):
    if not path.exists() or (since is not None and path.stat().st_mtime < since):
        return
    print("discrete storm engine throughput (attempts simulated per wall second, outside criterion)")
    for run in json.loads(path.read_text()):
        print(
            f"  {run['scenario']:<16}{run['attempts']:>12,.0f} attempts of {run['deliveries']:>9,.0f} deliveries"
            f" in {run['seconds']:.3f} s: {run['events_per_second'] / 1e6:.2f} M events/s"
            f" (fluid engine: {run['fluid_attempts']:,.0f} attempts)"
        )


if __name__ == "__main__":
    main()
