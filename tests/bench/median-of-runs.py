#!/usr/bin/env python3
"""Combine several bench-rma outputs into one: every number of every table
cell becomes the median of that cell over the runs (ratios are recomputed
are cell-wise medians of the runs' ratios, not ratios of medians), and the
Gasket column gets a min..max-over-runs column beside it.

    median-of-runs.py run1.txt run2.txt ... > combined.md
"""
import re
import statistics
import sys

NUM = re.compile(r"^-?[0-9]+(\.[0-9]+)?%?$")


def tables(path):
    """[(heading, [row cells...])] for every Markdown table in a file."""
    out, heading, rows = [], None, None
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("### "):
                heading, rows = line, None
            elif line.startswith("|"):
                cells = [c.strip() for c in line.strip("|").split("|")]
                if rows is None:
                    rows = []
                    out.append((heading, cells, rows))
                elif not set("".join(cells)) <= set("-:"):
                    rows.append(cells)
            else:
                rows = None
    return out


def fmt_like(sample, value):
    pct = sample.endswith("%")
    s = sample.rstrip("%")
    decimals = len(s.split(".")[1]) if "." in s else 0
    return f"{value:.{decimals}f}" + ("%" if pct else "")


def main(paths):
    runs = [tables(p) for p in paths]
    first = runs[0]
    print(f"Cell-wise medians over {len(paths)} runs: {', '.join(paths)}")
    for t, (heading, header, rows) in enumerate(first):
        # The Gasket figure's column gets a min..max-over-runs column after it.
        gasket = next(c for c, h in enumerate(header) if h.startswith("Gasket") and "/" not in h)
        out_header = header[: gasket + 1] + ["Gasket min..max"] + header[gasket + 1 :]
        print(f"\n{heading} — median of {len(paths)} runs\n")
        print("| " + " | ".join(out_header) + " |")
        print("|" + "|".join(["---"] + ["---:"] * (len(out_header) - 1)) + "|")
        for r, row in enumerate(rows):
            cells = []
            for c, cell in enumerate(row):
                if c > 0 and NUM.match(cell):
                    vals = [float(run[t][2][r][c].rstrip("%")) for run in runs]
                    cells.append(fmt_like(cell, statistics.median(vals)))
                    if c == gasket:
                        cells.append(fmt_like(cell, min(vals)) + ".." + fmt_like(cell, max(vals)))
                else:
                    cells.append(cell)
            print("| " + " | ".join(cells) + " |")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1:])
