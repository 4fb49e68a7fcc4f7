#!/usr/bin/env python3
"""check_generic.py -- does every C11 generic synopsis compile, in C11 and in C++?

Usage: check_generic.py --synopses H --tables MD --lang c11|c++ --compiler OSHCC --workdir DIR

For every "/* C11 */" line of openshmem-1.6-synopses.h and every TYPE of its
table, writes a call with arguments of exactly the synopsis' parameter types
(TYPE substituted), e.g. for shmem_g on long:

    const long *a0 = 0; int a1 = 0;
    static_assert: shmem_g(a0, a1) has type long

and compiles all of them with shmem.h, as C11 (the _Generic interface,
gasket/shmem_generic.h) or as C++ (the overloads, gasket/shmem_cxx.h) --
through oshcc/oshc++, as a user would.  A wrong selection fails: a pointer
argument of another type is an error (-Werror=incompatible-pointer-types in
C, no matching overload in C++), and the result's type is asserted.  The
calls are compiled, never run.

If the whole file fails, each generic name is compiled on its own and every
failing name is listed with its first compiler errors; exit status 1.  A
few calls outside the tables (MUST_NOT_COMPILE) must be rejected.
"""
import argparse
import os
import re
import subprocess
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import synopses  # noqa: E402

C_FLAGS = ["-std=c11", "-c", "-Werror=incompatible-pointer-types", "-Werror=int-conversion",
           "-Werror=implicit-function-declaration", "-Wno-unused-variable", "-Wno-unused-but-set-variable"]
CXX_FLAGS = ["-std=c++11", "-c", "-Wno-unused-variable", "-Wno-unused-but-set-variable"]


def param_type(param):
    """The type part of a parameter declaration: drop the trailing identifier."""
    m = re.match(r"^(.*?)\s*\b[A-Za-z_]\w*$", param)
    return m.group(1) if m else param


def block(s, type_, lang, index):
    """One checked call of synopsis `s` with TYPE = type_."""
    subst = (lambda text: synopses.substitute(text, type_)) if type_ else (lambda text: text)
    lines = [f"    {{ /* {s.section}: {s.name}, TYPE = {type_ or '-'} */"]
    args = []
    for i, p in enumerate(s.params):
        lines.append(f"        {subst(param_type(p))} a{i} = 0;")
        args.append(f"a{i}")
    call = f"{s.name}({', '.join(args)})"
    ret = subst(s.ret).replace("_Noreturn", "").strip()
    what = f"{s.name} on {type_} returns {ret}".replace('"', "")
    if ret == "void":
        lines.append(f"        {call};")
    elif lang == "c11":
        lines.append(f"        _Static_assert(_Generic(({call}), {ret}: 1, default: 0), \"{what}\");")
        lines.append(f"        (void){call};")
    else:
        lines.append(f"        static_assert(std::is_same<decltype({call}), {ret}>::value, \"{what}\");")
        lines.append(f"        (void){call};")
    lines.append("    }")
    return "\n".join(lines)


def generic_names(syn):
    """{generic name: [synopsis...]} for the C11 lines, in spec order."""
    out = {}
    for s in syn:
        if s.lang == "C11":
            out.setdefault(s.name, []).append(s)
    return out


def function_for(name, entries, lang, skip_complex):
    body = []
    for i, s in enumerate(entries):
        types = [t for t, _ in s.types] or [None]
        for t in types:
            if t and skip_complex and "_Complex" in t:
                continue
            body.append(block(s, t, lang, i))
    return f"void gasket_check_{name}(void) {{\n" + "\n".join(body) + "\n}\n"


def source(functions, lang):
    head = "#include <shmem.h>\n"
    if lang == "c++":
        head += "#include <type_traits>\n"
    return head + "\n" + "\n".join(functions)


# Calls outside the tables: each must fail to compile (a type the spec does
# not list for the routine, or dest and source of different types).
MUST_NOT_COMPILE = [
    ("shmem_put, long dest and int source", "long *d = 0; const int *s = 0; shmem_put(d, s, 1, 0);"),
    ("shmem_atomic_fetch_and on double (not in Table 8)", "double *d = 0; (void)shmem_atomic_fetch_and(d, 1.0, 0);"),
    ("shmem_atomic_add on float (not in Table 6)", "float *d = 0; shmem_atomic_add(d, 1.0f, 0);"),
    ("shmem_wait_until on double (not in Table 6)", "double *v = 0; shmem_wait_until(v, SHMEM_CMP_EQ, 1.0);"),
    ("shmem_g on a void pointer", "const void *s = 0; (void)shmem_g(s, 0);"),
]


def negative_checks(compiler, lang, workdir, ext):
    """Names of the MUST_NOT_COMPILE cases that compiled."""
    wrong = []
    for i, (what, body) in enumerate(MUST_NOT_COMPILE):
        p = os.path.join(workdir, f"negative_{i}.{ext}")
        with open(p, "w") as f:
            f.write(f"#include <shmem.h>\nvoid gasket_negative(void) {{ {body} }}\n")
        if compile_(compiler, lang, p)[0]:
            wrong.append(what)
    return wrong


def compile_(compiler, lang, path):
    flags = C_FLAGS if lang == "c11" else CXX_FLAGS
    r = subprocess.run([compiler, *flags, path, "-o", path + ".o"], capture_output=True, text=True)
    return r.returncode == 0, r.stdout + r.stderr


def first_errors(text, n=4):
    errs = [line for line in text.splitlines() if "error" in line]
    return errs[:n] or text.splitlines()[:n]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--synopses", required=True)
    ap.add_argument("--tables", required=True)
    ap.add_argument("--lang", choices=["c11", "c++"], required=True)
    ap.add_argument("--compiler", required=True)
    ap.add_argument("--workdir", required=True)
    args = ap.parse_args()

    syn = synopses.read_synopses(args.synopses, synopses.read_tables(args.tables))
    names = generic_names(syn)
    # C++ has no _Complex types in the standard language; complex reductions
    # are optional in C (§9.10.9) and not part of the C++ overloads' check.
    skip_complex = args.lang == "c++"
    funcs = {n: function_for(n, e, args.lang, skip_complex) for n, e in names.items()}
    ext = "c" if args.lang == "c11" else "cpp"
    os.makedirs(args.workdir, exist_ok=True)
    ncalls = sum(f.count("/* §") for f in funcs.values())

    path = os.path.join(args.workdir, f"generic_all.{ext}")
    with open(path, "w") as f:
        f.write(source(funcs.values(), args.lang))
    ok, out = compile_(args.compiler, args.lang, path)
    wrong = negative_checks(args.compiler, args.lang, args.workdir, ext)
    for what in wrong:
        print(f"COMPILED but must not ({args.lang}): {what}")
    if ok and not wrong:
        print(f"generic check passed ({args.lang}): {len(names)} generic names, {ncalls} typed calls compile "
              f"and select the right routine; {len(MUST_NOT_COMPILE)} calls outside the tables are rejected")
        return 0
    if ok:
        print(f"generic check FAILED ({args.lang})")
        return 1

    failing = []
    for n, fn in funcs.items():
        p = os.path.join(args.workdir, f"generic_{n}.{ext}")
        with open(p, "w") as f:
            f.write(source([fn], args.lang))
        ok1, out1 = compile_(args.compiler, args.lang, p)
        if not ok1:
            failing.append((n, names[n][0].section, out1))
    if not failing:  # only the combination fails: show it
        print("\n".join(first_errors(out, 20)))
        failing.append(("(all together)", "", out))
    print(f"MISSING or wrong generic names ({args.lang}) ({len(failing)} of {len(names)}):")
    for n, section, text in failing:
        print(f"  {section}: {n}")
        for line in first_errors(text):
            print(f"      {line[:240]}")
    print(f"generic check FAILED ({args.lang})")
    return 1


if __name__ == "__main__":
    sys.exit(main())
