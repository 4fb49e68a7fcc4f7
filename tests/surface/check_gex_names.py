#!/usr/bin/env python3
"""check_gex_names.py -- do Gasket's GASNet-EX headers provide every name of
a GASNet-EX specification document?

Usage: check_gex_names.py --spec gasnet-ex-api.txt|gasnet-ex-memory-kinds.txt
                          --include DIR

gasnet-ex-api.txt: the names are the gex_/GEX_ identifiers (and
gasnet_QueryGexObjects, GASNET_MAXEPS, SIZEOF_GEX_RMA_VALUE_T) on its
declaration lines: the code outside // comments, where "???" placeholders
(GEX_DT_???) are skipped.
gasnet-ex-memory-kinds.txt (prose with declarations in it): every gex_/GEX_
identifier and GASNET_HAVE_MK_CLASS_* name in the text, less the prefixes
(a name ending in "_", as "gex_AD_" for the family), the families named as
such in prose (SKIP, with the reason) and the names it only considers.
A name is provided when the installed headers (gasnetex.h, gasnet_fwd.h,
gasnet.h, gasnet_mk.h and what they include from DIR) name it outside
comments: as a function, type, field or macro.

Issues 17 and 18 are built in steps: NOT_YET lists, per document and by
the step that brings them, the names not provided yet (docs/gasnet-ex.md,
docs/memory-kinds.md).  Fails, printing the names, when a specification
name is neither provided nor listed, when a listed name is provided (the
list is out of date), or when a listed name is not a specification name.
"""
import argparse
import pathlib
import re
import sys

EXTRA = r"gasnet_QueryGexObjects|GASNET_MAXEPS|SIZEOF_GEX_RMA_VALUE_T"
NAME = re.compile(r"\b(gex_[A-Za-z0-9_]+|GEX_[A-Za-z0-9_]+|" + EXTRA + r")\b(\?*)")

NOT_YET = {
    "gasnet-ex-api.txt": {},
    "gasnet-ex-memory-kinds.txt": {},
}

# gasnet-ex-memory-kinds.txt's identifiers that name no identifier of the API.
SKIP = {
    "GEX_EP_CAPABILITY": "the family, named in prose (its members are checked)",
    "GEX_FLAG_HINT_ACCEL": "the family, named in prose",
    "GEX_FLAG_TM_SCRATCH_SIZE": "the family GEX_FLAG_TM_SCRATCH_SIZE_{MIN,RECOMMENDED}, named in prose",
    "gex_AM_Max": "the gex_AM_Max* queries, named in prose",
    "gex_RMA_Get": "the gex_RMA_Get* calls, named in prose",
    "gex_RMA_Put": "the gex_RMA_Put* calls, named in prose",
    "gex_TM_pair": "the document's misspelling of gex_TM_Pair",
    "gex_EP_Info": "an API the document says is under consideration, not specified",
}


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r"//[^\n]*", " ", text)


def spec_names(path):
    names = set()
    for line in open(path, encoding="utf-8"):
        code = line.split("//")[0]
        for m in NAME.finditer(code):
            if not m.group(2):  # not a GEX_DT_??? placeholder
                names.add(m.group(1))
    return names


def prose_names(path):
    text = open(path, encoding="utf-8").read()
    found = {m.group(1) for m in NAME.finditer(text)} | set(re.findall(r"\bGASNET_HAVE_MK_CLASS_[A-Z0-9_]+", text))
    return {n for n in found if not n.endswith("_") and n not in SKIP}


def header_names(include):
    root = pathlib.Path(include)
    files = [root / "gasnetex.h", root / "gasnet_fwd.h", root / "gasnet.h"] + sorted((root / "gasket").glob("gasnet_*.h"))
    files += [root / h for h in ("gasnet_ratomic.h", "gasnet_vis.h", "gasnet_coll.h", "gasnet_tools.h", "gasnet_mk.h")
              if (root / h).exists()]
    text = "".join(strip_comments(f.read_text()) for f in files)
    return {m.group(1) for m in NAME.finditer(text)} | set(re.findall(r"\bGASNET_HAVE_MK_CLASS_[A-Z0-9_]+", text))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--spec", required=True)
    ap.add_argument("--include", required=True)
    args = ap.parse_args()
    document = pathlib.Path(args.spec).name
    if document not in NOT_YET:
        print(f"check_gex_names: {document} is not a document this check knows: " + ", ".join(NOT_YET))
        return 1
    wanted = prose_names(args.spec) if document == "gasnet-ex-memory-kinds.txt" else spec_names(args.spec)
    have = header_names(args.include)
    steps = NOT_YET[document]
    not_yet = {n: step for step, names in steps.items() for n in names.split()}
    bad = 0
    missing = sorted(n for n in wanted if n not in have and n not in not_yet)
    if missing:
        bad += 1
        print(f"MISSING: {len(missing)} specification names neither provided nor listed as not yet:")
        print("  " + " ".join(missing))
    stale = sorted(n for n in not_yet if n in have)
    if stale:
        bad += 1
        print(f"STALE: {len(stale)} names listed as not yet are provided (remove them from NOT_YET):")
        print("  " + " ".join(stale))
    unknown = sorted(n for n in not_yet if n not in wanted)
    if unknown:
        bad += 1
        print(f"UNKNOWN: {len(unknown)} names listed as not yet are not specification names: " + " ".join(unknown))
    provided = len([n for n in wanted if n in have])
    print(f"check_gex_names: {document}: {provided} of {len(wanted)} specification names provided; "
          f"{len([n for n in wanted if n in not_yet])} listed as not yet:")
    for step, names in steps.items():
        print(f"  {step}: {len(names.split())}")
    if bad:
        return 1
    print("check_gex_names: passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
