#!/usr/bin/env python3
"""What Gasket's progress thread costs a compute loop: runs
`bench-am --compute-only` with GASKET_PROGRESS_THREAD=off and =on,
alternately (off, on, off, on, ...), and compares the compute-loop times the
runs report.  The variable is read once, at gasnet_init, so each setting
needs its own run; alternating the runs and pairing each "on" run with the
"off" run just before it keeps slow drifts in the machine's load out of the
ratios.

    progress-cost.py OSHRUN BENCH_AM [--pairs N] [--np N] [-- bench-am options]

e.g.  tests/bench/progress-cost.py build/bin/oshrun build/bin/bench-am --pairs 5

Prints every run's figures, then a Markdown table: per pair, the "idle" loop
(every node computes, no messages; the slowest node of each round) and the
"loaded" loop (node 1 computes while node 0 sends it a request every
--tick-us) with the progress thread off and on, and on/off; the last row
is the median over pairs.  on/off - 1 is the thread's cost.
"""
import argparse
import os
import re
import statistics
import subprocess
import sys

RESULT = re.compile(r"^RESULT (.*)$", re.M)


def run(oshrun, bench, np, setting, extra):
    env = dict(os.environ, GASKET_PROGRESS_THREAD=setting)
    cmd = [oshrun, "-np", str(np), bench, "--compute-only"] + extra
    out = subprocess.run(cmd, env=env, capture_output=True, text=True)
    m = RESULT.search(out.stdout)
    if out.returncode != 0 or not m:
        sys.stderr.write(out.stdout + out.stderr)
        sys.exit(f"progress-cost.py: {' '.join(cmd)} with GASKET_PROGRESS_THREAD={setting} "
                 f"failed (exit status {out.returncode})")
    fields = dict(kv.split("=", 1) for kv in m.group(1).split())
    print(f"GASKET_PROGRESS_THREAD={setting}: {m.group(1)}", flush=True)
    return fields


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 epilog="bench-am options go after --")
    ap.add_argument("oshrun")
    ap.add_argument("bench")
    ap.add_argument("--pairs", type=int, default=3, help="off/on run pairs (default 3)")
    ap.add_argument("--np", type=int, default=2, help="nodes (default 2)")
    argv = sys.argv[1:]
    extra = argv[argv.index("--") + 1:] if "--" in argv else []
    a = ap.parse_args(argv[:argv.index("--")] if "--" in argv else argv)
    a.extra = extra

    rows = []
    for _ in range(a.pairs):
        off = run(a.oshrun, a.bench, a.np, "off", a.extra)
        on = run(a.oshrun, a.bench, a.np, "on", a.extra)
        rows.append((off, on))

    def f(d, k):
        return float(d[k])

    print("\n| pair | idle off ms | idle on ms | idle on/off | loaded off ms | loaded on ms | loaded on/off |"
          " served while computing (off; on) | request-to-handler median µs (off; on) |")
    print("|---:|---:|---:|---:|---:|---:|---:|---|---|")
    idle_r, load_r = [], []
    for i, (off, on) in enumerate(rows, 1):
        ir = f(on, "idle_ms") / f(off, "idle_ms")
        lr = f(on, "loaded_ms") / f(off, "loaded_ms")
        idle_r.append(ir)
        load_r.append(lr)
        print(f"| {i} | {f(off, 'idle_ms'):.1f} | {f(on, 'idle_ms'):.1f} | {ir:.3f} | {f(off, 'loaded_ms'):.1f} |"
              f" {f(on, 'loaded_ms'):.1f} | {lr:.3f} | {off['served_during']}/{off['sent']};"
              f" {on['served_during']}/{on['sent']} | {off['delay_med_us']}; {on['delay_med_us']} |")
    mi, ml = statistics.median(idle_r), statistics.median(load_r)
    print(f"| median | | | {mi:.3f} | | | {ml:.3f} | | |")
    print(f"\nprogress thread cost to the compute loop (median over {a.pairs} pairs): "
          f"idle {100 * (mi - 1):+.1f}%, loaded {100 * (ml - 1):+.1f}%")


if __name__ == "__main__":
    main()
