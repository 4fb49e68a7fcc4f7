#!/usr/bin/env python3
"""check_spec_names.py -- does gasnet_tools.h provide every name of the tools spec?

Usage: check_spec_names.py --spec gasnet-tools.txt --header gasnet_tools.h
                           --doc docs/gasnet-tools.md --cc CC --include DIR...

Every gasnett_ / GASNETT_ identifier the spec text names must be either
  - provided by the header: a name in its C preprocessor output (functions,
    types, the atomic operations its macros generate) or a macro it defines
    (`cc -E -dM`), in either threading mode (default, and with
    -DGASNETT_THREAD_SINGLE), or a name its own #if lines test (the client's
    switches it honours, such as GASNETT_USE_TRUE_MUTEXES); or
  - listed in the first column of the table of the doc's section
    "## Not provided" (left out, or deliberately left undefined as the spec
    allows), in backquotes.
Spec words that are patterns, not names (gasnett_atomic_X, GASNETT_HAVE_,
gasnett_local_), are skipped.  Also fails when the doc lists a name the
header does provide (the list must stay true).  Prints each missing name
and exits 1; prints the counts and "spec names check passed" otherwise.
"""
import argparse
import re
import subprocess
import sys

NAME = re.compile(r"\b(?:gasnett|GASNETT)_[A-Za-z0-9_]*")


def spec_names(path):
    names = set(NAME.findall(open(path, encoding="utf-8").read()))
    # Placeholders in the prose: "gasnett_atomic_X to gasnett_strongatomic_X",
    # "GASNETT_HAVE_ defines", "gasnett_local_*", "GASNETT_RELEASE_VERSION_*".
    return {n for n in names if not n.endswith("_") and not n.endswith("_X")}


def header_names(cc, includes, header):
    found = set()
    for extra in ([], ["-DGASNETT_THREAD_SINGLE"]):
        for mode in (["-E"], ["-E", "-dM"]):
            cmd = [cc, "-std=c11"] + mode + extra + [f"-I{d}" for d in includes] + [header]
            found |= set(NAME.findall(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout))
    for line in open(header, encoding="utf-8"):
        if re.match(r"\s*#\s*(if|elif|ifdef|ifndef)\b", line):
            found |= set(NAME.findall(line))
    return found


def doc_names(path):
    text = open(path, encoding="utf-8").read()
    m = re.search(r"^## Not provided\b(.*?)(?=^## |\Z)", text, re.S | re.M)
    if not m:
        sys.exit(f"check_spec_names.py: {path} has no '## Not provided' section")
    # The first cell of each table row holds the names; the rest says why.
    cells = [line.split("|")[1] for line in m.group(1).splitlines() if line.startswith("|")]
    return {n for cell in cells for quoted in re.findall(r"`([^`]*)`", cell) for n in NAME.findall(quoted)}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--spec", required=True)
    ap.add_argument("--header", required=True)
    ap.add_argument("--doc", required=True)
    ap.add_argument("--cc", required=True)
    ap.add_argument("--include", action="append", required=True)
    args = ap.parse_args()

    spec = spec_names(args.spec)
    provided = header_names(args.cc, args.include, args.header)
    listed = doc_names(args.doc)
    missing = sorted(spec - provided - listed)
    stale = sorted(listed & provided)
    for n in missing:
        print(f"not provided by {args.header} and not listed in {args.doc} (## Not provided): {n}")
    for n in stale:
        print(f"listed as not provided in {args.doc}, but {args.header} provides it: {n}")
    if missing or stale:
        sys.exit(1)
    print(f"{len(spec)} spec names: {len(spec - listed)} provided by the header, {len(spec & listed)} listed as "
          "not provided; spec names check passed")


if __name__ == "__main__":
    main()
