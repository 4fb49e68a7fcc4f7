#!/usr/bin/env python3
"""check_symbols.py -- does libgasket.so export every OpenSHMEM 1.6 C routine?

Usage: check_symbols.py --synopses H --tables MD --library SO [--pshmem-h H] [--nm NM]

The required names are the C/C++ synopses of openshmem-1.6-synopses.h with
TYPENAME expanded over the rows of each synopsis' type table (or inline
list), SIZE over 8..128, plus the deprecated names of its Part 3 and the
Annex F.2.7 cache routines (which the 1.6 text names without a synopsis).
For each name the library must export the routine and its profiling twin
"p" + name (§10).  With --pshmem-h (generated from shmem.h's declarations),
shmem.h must declare every required routine, and every function it declares
must be exported (a declared routine the library lacks is a link error for
users).

Prints every missing name, grouped by spec section, and exits 1 if any is
missing; prints "surface check passed" otherwise.
"""
import argparse
import re
import subprocess
import sys
from collections import defaultdict

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import synopses  # noqa: E402

# Annex F.2.7 SHMEM_CACHE: deprecated, named by the 1.6 text, no synopsis.
CACHE_ROUTINES = ["shmem_clear_cache_inv", "shmem_set_cache_inv", "shmem_clear_cache_line_inv",
                  "shmem_set_cache_line_inv", "shmem_udcflush", "shmem_udcflush_line"]


def exported_functions(nm, library):
    out = subprocess.run([nm, "-D", "--defined-only", library], check=True, capture_output=True, text=True).stdout
    return {f[2] for f in (line.split() for line in out.splitlines()) if len(f) == 3 and f[1] in "TWi"}


def pshmem_h_names(path):
    names = set()
    for line in open(path, encoding="utf-8"):
        m = re.match(r"^[^/*#].*?\b(p[A-Za-z_]\w*)\s*\(", line)
        if m:
            names.add(m.group(1))
    return names


def report(title, missing, sections):
    if not missing:
        return 0
    print(f"MISSING {title} ({len(missing)}):")
    by_section = defaultdict(list)
    for name in missing:
        by_section[sections.get(name, "")].append(name)
    for section in sorted(by_section, key=section_key):
        names = sorted(by_section[section])
        print(f"  {section or '(no section)'}: {len(names)}")
        for name in names:
            print(f"    {name}")
    return len(missing)


def section_key(section):
    m = re.match(r"§([\d.]+)", section)
    return [int(x) for x in m.group(1).split(".") if x] if m else [99]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--synopses", required=True)
    ap.add_argument("--tables", required=True)
    ap.add_argument("--library", required=True)
    ap.add_argument("--pshmem-h")
    ap.add_argument("--nm", default="nm")
    args = ap.parse_args()

    syn = synopses.read_synopses(args.synopses, synopses.read_tables(args.tables))
    sections = synopses.c_names(syn)
    for name in CACHE_ROUTINES:
        sections[name] = "Annex F.2.7 SHMEM_CACHE"
    exported = exported_functions(args.nm, args.library)

    missing = [n for n in sections if n not in exported]
    missing_twins = [n for n in sections if n in exported and "p" + n not in exported]
    twin_sections = {"p" + n: s for n, s in sections.items()}
    bad = report("routines (not exported by the library)", missing, sections)
    bad += report("pshmem_ twins of exported routines", ["p" + n for n in missing_twins], twin_sections)

    declared = 0
    if args.pshmem_h:
        pnames = pshmem_h_names(args.pshmem_h)
        declared = len(pnames)
        undeclared = [n for n in sections if "p" + n not in pnames]
        bad += report("declarations in shmem.h (pshmem.h is generated from it)", undeclared, sections)
        undefined = sorted(n for n in pnames if n not in exported or n[1:] not in exported)
        if undefined:
            print(f"MISSING definitions of routines declared in shmem.h / pshmem.h ({len(undefined)}):")
            for n in undefined:
                print(f"    {n[1:]}{'' if n[1:] in exported else ' (and ' + n + ')'}")
            bad += len(undefined)

    print(f"required: {len(sections)} C routines ({len(CACHE_ROUTINES)} of them Annex F.2.7 cache routines), "
          f"each with its pshmem_ twin; exported: {len(exported)} functions; pshmem.h declares {declared}")
    if bad:
        print(f"surface check FAILED: {bad} missing")
        return 1
    print("surface check passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
