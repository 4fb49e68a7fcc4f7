"""synopses.py -- reads openshmem-1.6-synopses.h and openshmem-1.6-type-tables.md.

Shared by check_symbols.py (the C entry points the library must export) and
check_generic.py (the C11 / C++ generic calls that must compile).

A synopsis line looks like
    void shmem_TYPENAME_put(TYPE *dest, ...);  /* C/C++ */ /* TYPE/TYPENAME: Table 5 (stdrmatypes, ...) */
Its tags give the language (C11 or C/C++), whether it is deprecated, and
the domain of TYPE/TYPENAME (a table, a table column, an inline list with
TYPENAMEs from a table, a deprecated extension) or of SIZE.
"""
import re
from dataclasses import dataclass, field

SIZES = ["8", "16", "32", "64", "128"]
OP_COLUMNS = {"AND": 2, "OR": 2, "XOR": 2, "MAX": 3, "MIN": 3, "SUM": 4, "PROD": 4}


@dataclass
class Synopsis:
    section: str          # "§9.6.1.1 SHMEM_PUT"
    lang: str             # "C11" or "C/C++"
    deprecated: bool
    ret: str              # return type text, may contain TYPE
    name: str             # may contain TYPENAME or SIZE
    params: list          # parameter declarations, may contain TYPE
    types: list = field(default_factory=list)  # [(TYPE, TYPENAME)] when TYPE is used
    sizes: list = field(default_factory=list)  # SIZE values when SIZE is used
    derived: bool = False  # Part 3: a deprecated name the spec gives no synopsis for


def read_tables(path):
    """{table number: [(TYPE, TYPENAME, ops-set or None)]} from the type-tables file."""
    tables, current = {}, None
    for line in open(path, encoding="utf-8"):
        m = re.match(r"^## Table (\d+):", line)
        if m:
            current = int(m.group(1))
            tables[current] = []
            continue
        if line.startswith("## "):
            current = None
            continue
        if current is None or not line.startswith("|"):
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if cells[0] in ("TYPE", "Constant Name", "") or set(cells[0]) <= set("-"):
            continue
        ops = None
        if len(cells) >= 5:
            ops = {op.strip() for col in cells[2:5] for op in col.split(",") if op.strip()}
        tables[current].append((cells[0], cells[1], ops))
    return tables


def _domain(tag_text, tables):
    """[(TYPE, TYPENAME)] for one TYPE tag's text."""
    text = tag_text.split(":", 1)[1].strip()
    inline = re.match(r"\{([^}]*)\}(?:;\s*TYPENAME per Table (\d+))?", text)
    if inline:
        names = [t.strip() for t in inline.group(1).split(",")]
        lookup = {}
        if inline.group(2):
            lookup = {t: n for t, n, _ in tables[int(inline.group(2))]}
        return [(t, lookup.get(t)) for t in names]
    m = re.match(r"Table (\d+)", text)
    if not m:
        raise ValueError(f"unknown TYPE domain: {tag_text!r}")
    rows = tables[int(m.group(1))]
    col = re.search(r"\b(AND|OR|XOR|MAX|MIN|SUM|PROD) column", text)
    if col:
        rows = [r for r in rows if col.group(1) in (r[2] or ())]
    return [(t, n) for t, n, _ in rows]


def _split_params(text):
    text = text.strip()
    if text in ("", "void"):
        return []
    return [p.strip() for p in text.split(",")]


DECL = re.compile(r"^(?P<ret>.*?)\b(?P<name>[A-Za-z_]\w*)\s*\((?P<params>.*)\)\s*$")


def read_synopses(path, tables):
    """Every declaration of Parts 2 and 3, in file order."""
    out, section = [], ""
    for line in open(path, encoding="utf-8"):
        m = re.match(r"^/\* (§[\d.]+ [A-Z_0-9, ]+?) \*/\s*$", line)
        if m:
            section = m.group(1)
            continue
        if line.startswith(("/*", "#", " ", "typedef", "}")) or "(" not in line or ";" not in line:
            continue
        decl, rest = line.split(";", 1)
        tags = re.findall(r"/\*\s*(.*?)\s*\*/", rest)
        lang = "C11" if "C11" in tags else "C/C++"
        m = DECL.match(decl.strip())
        if not m:
            raise ValueError(f"cannot parse synopsis: {line!r}")
        s = Synopsis(section=section, lang=lang, deprecated="deprecated" in tags,
                     ret=m.group("ret").strip(), name=m.group("name"), params=_split_params(m.group("params")),
                     derived=any(t.startswith("derived") for t in tags))
        if s.derived:
            s.section = "Annex F (derived)"
        for tag in tags:
            if tag.startswith(("TYPE:", "TYPE/TYPENAME:")):
                s.types += _domain(tag, tables)
            elif tag.startswith("deprecated TYPE extension:"):
                s.types += _domain(tag.replace("deprecated TYPE extension", "TYPE"), tables)
            elif tag.startswith("SIZE:"):
                s.sizes = [x.strip() for x in tag.split(":", 1)[1].split(",")]
        if "SIZE" in s.name and not s.sizes:
            s.sizes = SIZES
        out.append(s)
    return out


def c_names(synopses):
    """{C entry-point name: section} for every C/C++ synopsis, TYPENAME and SIZE expanded."""
    names = {}
    for s in synopses:
        if s.lang != "C/C++":
            continue
        if "TYPENAME" in s.name:
            for _, typename in s.types:
                names.setdefault(s.name.replace("TYPENAME", typename), s.section)
        elif "SIZE" in s.name:
            for size in s.sizes:
                names.setdefault(s.name.replace("SIZE", size), s.section)
        else:
            names.setdefault(s.name, s.section)
    return names


def substitute(text, type_):
    """text with the placeholder TYPE (a whole word) replaced by type_."""
    return re.sub(r"\bTYPE\b", type_, text)
