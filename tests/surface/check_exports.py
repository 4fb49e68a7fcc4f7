#!/usr/bin/env python3
"""check_exports.py -- does libgasket.so export only names the public headers declare?

Usage: check_exports.py --library SO --cc CC --include DIR [--include DIR...]
                        --workdir DIR [--nm NM]

Lists the dynamic symbols libgasket.so defines (nm -D --defined-only) and asks
the C compiler, not a parser, whether each is declared by the public headers:
every top-level *.h of the --include directories (the headers `cmake
--install` copies: shmem.h, pshmem.h, gasnet.h, and the gasket/*.h they
include) goes into one C11 translation unit, every exported name is
#undef'd (so a macro of that name cannot stand in for it) and then has its
address taken, one name per line:

    static void x41(void) { (void)&shmem_long_put; }

A name the headers do not declare as a function or object -- a C++ internal
(_ZN6gasket...), an extern "C" helper no header mentions, a type -- draws a
diagnostic on its own line.  Prints each offender (demangled where it is a
C++ name) with the compiler's message and exits 1 if there is any; prints
the count of exported names and "exports check passed" otherwise.
"""
import argparse
import glob
import os
import re
import subprocess
import sys

DIAGNOSTIC = re.compile(r"^(?P<file>[^:]+):(?P<line>\d+):(?:\d+:)?\s*(?:fatal )?error:\s*(?P<msg>.*)$")


def exported_symbols(nm, library):
    out = subprocess.run([nm, "-D", "--defined-only", library], check=True, capture_output=True, text=True).stdout
    names = set()
    for line in out.splitlines():
        fields = line.split()
        if fields:
            names.add(fields[-1])
    return sorted(names)


def public_headers(includes):
    headers = []
    for d in includes:
        headers += sorted(os.path.basename(h) for h in glob.glob(os.path.join(d, "*.h")))
    return headers


def probe_source(headers, names):
    """The C file, and the line of each name's probe."""
    lines = [f"#include <{h}>" for h in headers]
    lines += [f"#undef {n}" for n in names]
    first = len(lines) + 1
    lines += [f"static void x{i}(void) {{ (void)&{n}; }}" for i, n in enumerate(names)]
    return "\n".join(lines) + "\n", {first + i: n for i, n in enumerate(names)}


def demangle(names):
    try:
        out = subprocess.run(["c++filt"], input="\n".join(names), check=True, capture_output=True,
                             text=True).stdout.splitlines()
        return dict(zip(names, out))
    except (OSError, subprocess.CalledProcessError):
        return {n: n for n in names}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--library", required=True)
    ap.add_argument("--cc", required=True)
    ap.add_argument("--include", action="append", required=True)
    ap.add_argument("--workdir", required=True)
    ap.add_argument("--nm", default="nm")
    args = ap.parse_args()

    exported = exported_symbols(args.nm, args.library)
    unnameable = [n for n in exported if not re.fullmatch(r"[A-Za-z_]\w*", n)]  # e.g. name@VERSION
    names = [n for n in exported if n not in unnameable]
    headers = public_headers(args.include)
    source, line_of = probe_source(headers, names)
    os.makedirs(args.workdir, exist_ok=True)
    probe = os.path.join(args.workdir, "exports_probe.c")
    with open(probe, "w") as f:
        f.write(source)
    version = subprocess.run([args.cc, "--version"], capture_output=True, text=True).stdout
    no_limit = "-ferror-limit=0" if "clang" in version else "-fmax-errors=0"  # report every name
    cmd = [args.cc, "-std=c11", "-fsyntax-only", "-w", no_limit] + [f"-I{d}" for d in args.include] + [probe]
    result = subprocess.run(cmd, capture_output=True, text=True)

    offenders = {n: "not a C identifier" for n in unnameable}
    stray = []
    for line in result.stderr.splitlines():
        m = DIAGNOSTIC.match(line)
        if not m:
            continue
        name = line_of.get(int(m.group("line"))) if os.path.samefile(m.group("file"), probe) else None
        if name:
            msg = m.group("msg")
            offenders.setdefault(name, "not declared" if "undeclared" in msg else msg)
        else:
            stray.append(line)
    if stray or (result.returncode != 0 and not offenders):
        print(f"check_exports.py: {' '.join(headers)} do not compile together as C11:")
        print("\n".join(stray or result.stderr.splitlines()))
        return 1

    print(f"{len(exported)} exported symbols (nm -D --defined-only {os.path.basename(args.library)}); "
          f"public headers: {', '.join(headers)}")
    if offenders:
        readable = demangle(sorted(offenders))
        print(f"NOT PUBLIC: {len(offenders)} exported symbols the public headers do not declare:")
        for n in sorted(offenders):
            shown = n if readable[n] == n else f"{n}  ({readable[n]})"
            print(f"    {shown}: {offenders[n]}")
        print(f"exports check FAILED: {len(offenders)} of {len(exported)} exported symbols are not public API")
        return 1
    print("exports check passed: every exported symbol is declared by the public headers")
    return 0


if __name__ == "__main__":
    sys.exit(main())
