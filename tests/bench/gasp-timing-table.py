#!/usr/bin/env python3
"""gasp-timing-table.py OUT_DIR -- the table of docs/performance.md from the
runs of gasp-timing.sh: for the rows GASP's cost shows in, Gasket's figure
per configuration (median over rounds; the rows that wait for the target
to serve them -- bench-am, bench-amo with the fast path off -- the best
round, as they are bimodal on 2 cores, by where the target's progress runs;
throughput in microseconds per message), `none`/`main`, and the nanoseconds per operation
the no-op tool and the profiler add to `none`."""
import collections
import glob
import os
import re
import statistics
import sys

NUM = re.compile(r"^-?[0-9]+(\.[0-9]+)?$")
ROWS = [("rma", "on", "put 8 B + quiet, heap dest (shmem_putmem)"), ("rma", "on", "shmem_long_p + quiet, heap dest"),
        ("rma", "on", "get 8 B, heap source (shmem_getmem)"), ("rma", "on", "shmem_long_g, heap source"),
        ("rma", "off", "put 8 B + quiet, heap dest (shmem_putmem)"), ("rma", "off", "get 8 B, heap source (shmem_getmem)"),
        ("amo", "on", "shmem_long_atomic_fetch_add"), ("amo", "on", "shmem_long_atomic_add + shmem_quiet"),
        ("amo", "on", "shmem_signal_add + shmem_quiet"), ("amo", "on", "shmem_putmem_signal 8 B + shmem_quiet"),
        ("amo", "off", "shmem_long_atomic_fetch_add"),
        ("amo", "off", "shmem_long_atomic_add x n, one shmem_quiet (throughput)"),
        ("am", "on", "Short0 / 0 B"), ("am", "on", "Long2 / 8 B"), ("am", "on", "Short1 / 0 B"),
        ("am", "off", "Short0 / 0 B"), ("am", "off", "Long2 / 8 B"), ("am", "off", "Short1 / 0 B")]


def rows(path):
    """(table heading, row label, Gasket header, value) of every table row."""
    heading, hdr = "", None
    for line in open(path, encoding="utf-8"):
        line = line.rstrip("\n")
        if line.startswith("### "):
            heading, hdr = line[4:], None
        elif line.startswith("|"):
            cells = [c.strip() for c in line.strip("|").split("|")]
            if hdr is None:
                hdr = cells
            elif not set("".join(cells)) <= set("-:"):
                col = next((i for i, h in enumerate(hdr) if h.startswith("Gasket") and "/" not in h), None)
                if col is not None and col < len(cells) and NUM.match(cells[col]):
                    label = " / ".join(c for c in cells[:col] if not NUM.match(c))
                    yield heading, label, hdr[col], float(cells[col])
        else:
            hdr = None


def main():
    data = collections.defaultdict(lambda: collections.defaultdict(list))
    for path in sorted(glob.glob(os.path.join(sys.argv[1], "*.txt"))):
        bench, fp, cfg, _, _ = os.path.basename(path).split(".")
        for heading, label, unit, value in rows(path):
            if bench == "rma" and "latency" not in heading:
                continue
            data[(bench, fp, label)][cfg].append((unit, value))
    print("| benchmark, path | row | statistic | main µs | no tool µs | no tool / main | no-op tool: + ns | profiler: + ns |")
    print("|---|---|---|---:|---:|---:|---:|---:|")
    for key in ROWS:
        if key not in data:
            sys.exit(f"gasp-timing-table.py: no row {key} in {sys.argv[1]}")
        per_cfg = data[key]
        throughput = "Mmsg" in per_cfg["main"][0][0]
        if throughput:  # the best round, in µs per message
            fig = {c: 1 / max(v for _, v in vals) for c, vals in per_cfg.items()}
        elif key[0] == "am" or (key[0] == "amo" and key[1] == "off"):
            fig = {c: min(v for _, v in vals) for c, vals in per_cfg.items()}
        else:
            fig = {c: statistics.median(v for _, v in vals) for c, vals in per_cfg.items()}
        stat = "best" if key[0] == "am" or (key[0] == "amo" and key[1] == "off") else "median"
        name = key[2] + ((" (throughput)" if throughput else " (round trip)") if key[0] == "am" else "")
        print(f"| bench-{key[0]}, fast path {key[1]} | {name} | {stat} of {len(per_cfg['main'])} | {fig['main']:.4f} | "
              f"{fig['none']:.4f} | {fig['none'] / fig['main']:.3f} | {1000 * (fig['noop'] - fig['none']):+.0f} | "
              f"{1000 * (fig['prof'] - fig['none']):+.0f} |")


if __name__ == "__main__":
    main()
