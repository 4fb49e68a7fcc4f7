#!/usr/bin/env python3
"""What GASP costs the hot routines, in instructions per call: runs
`gasp-cost-ops` (tests/bench/gasp_cost.c) under valgrind's callgrind once per
configuration, collecting only inside the routines it calls, and prints the
instructions per call of each routine, for each configuration, with the
ratio to the first.  Instruction counts do not depend on the machine's load,
so "no cost without a tool" can be checked to the instruction where timing
on a shared 2-core machine cannot resolve 1%.  (On the MPI path, counts
include the MPI library's polling, which varies a little from run to run.)

    gasp-cost.py OSHRUN OPS --config NAME=LIBDIR[,TOOL] ... [--api shmem|gasnet|gex] [--calls N]

NAME=LIBDIR runs with LD_LIBRARY_PATH=LIBDIR (e.g. the build before GASP's
events, and this one); NAME=LIBDIR,TOOL also sets GASKET_GASP_TOOL=TOOL (e.g.
libgasket-gasp-noop.so).  GASKET_NODE_FASTPATH is passed through.  Needs
valgrind (Debian: valgrind).
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile


def callgrind_run(oshrun, ops, api, calls, libdir, tool, outdir, name):
    env = dict(os.environ)
    env.pop("GASKET_GASP_TOOL", None)
    extra = [f"LD_LIBRARY_PATH={libdir}"] + ([f"GASKET_GASP_TOOL={tool}"] if tool else [])
    # One file per process (%p: its pid); the origin's is the one whose
    # routines ran (the target's call none of them).
    out = os.path.join(outdir, f"{name}.%p")
    listing = subprocess.run([oshrun, "-np", "2", "env"] + extra + [ops, api, "1"], env=env, capture_output=True,
                             text=True)
    m = re.search(r"^ROUTINES (.*)$", listing.stdout, re.M)
    if listing.returncode != 0 or not m:
        sys.exit(f"gasp-cost.py: {ops} {api} 1 with {libdir} failed (status {listing.returncode}):\n"
                 f"{listing.stdout}{listing.stderr}")
    routines = m.group(1).split()
    toggles = [f"--toggle-collect={r}" for r in routines]
    cmd = [oshrun, "-np", "2", "env"] + extra + ["valgrind", "-q", "--tool=callgrind", f"--callgrind-out-file={out}"] \
        + toggles + [ops, api, str(calls)]
    res = subprocess.run(cmd, env=env, capture_output=True, text=True)
    if res.returncode != 0:
        sys.exit(f"gasp-cost.py: {' '.join(cmd)} failed (status {res.returncode}):\n{res.stdout}{res.stderr}")
    files = sorted(f for f in os.listdir(outdir) if f.startswith(name + "."))
    for f in files:
        ann = subprocess.run(["callgrind_annotate", "--inclusive=yes", "--threshold=100", os.path.join(outdir, f)],
                             capture_output=True, text=True).stdout
        counts = {}
        for r in routines:
            m = re.search(r"^\s*([\d,]+)\s.*[:\s]" + re.escape(r) + r"(\s|$|\[)", ann, re.M)
            if m:
                counts[r] = int(m.group(1).replace(",", "")) / calls
        if len(counts) == len(routines):
            break
    else:
        sys.exit(f"gasp-cost.py: no callgrind file of {name} ({files}) counts every routine of {routines}")
    return routines, counts


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("oshrun")
    ap.add_argument("ops")
    ap.add_argument("--config", action="append", required=True, help="NAME=LIBDIR[,TOOL]")
    ap.add_argument("--api", choices=["shmem", "gasnet", "gex"], default="shmem")
    ap.add_argument("--calls", type=int, default=10000)
    args = ap.parse_args()
    configs = []
    for c in args.config:
        name, _, rest = c.partition("=")
        libdir, _, tool = rest.partition(",")
        if not name or not libdir or not os.path.isdir(libdir):
            sys.exit(f"gasp-cost.py: --config {c!r}: expected NAME=LIBDIR[,TOOL] with an existing LIBDIR")
        if tool and not os.path.isfile(tool):
            sys.exit(f"gasp-cost.py: --config {c!r}: tool {tool!r} does not exist")
        configs.append((name, libdir, tool))
    results = []
    with tempfile.TemporaryDirectory() as outdir:
        for name, libdir, tool in configs:
            routines, counts = callgrind_run(args.oshrun, args.ops, args.api, args.calls, libdir, tool, outdir, name)
            results.append(counts)
            print(f"{name}: " + " ".join(f"{r}={counts[r]:.1f}" for r in routines), flush=True)
    names = [c[0] for c in configs]
    print()
    print(f"Instructions per call (callgrind, rank 0, {args.calls} calls each, "
          f"GASKET_NODE_FASTPATH={os.environ.get('GASKET_NODE_FASTPATH', '(unset)')})")
    print()
    head = "| routine | " + " | ".join(names) + " | " + " | ".join(f"{n}/{names[0]}" for n in names[1:]) + " |"
    print(head)
    print("|---" + "|---:" * (2 * len(names) - 1) + "|")
    for r in routines:
        base = results[0][r]
        cells = [f"{res[r]:.1f}" for res in results] + [f"{res[r] / base:.3f}" for res in results[1:]]
        print(f"| `{r}` | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
