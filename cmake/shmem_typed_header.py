#!/usr/bin/env python3
"""shmem_typed_header.py -- writes include/gasket/shmem_typed.h from the type tables.

Usage:
  shmem_typed_header.py --write
      regenerate the committed header (include/gasket/shmem_typed.h)
  shmem_typed_header.py --output FILE [--check COMMITTED]
      write the header to FILE; with --check, fail (exit 1, printing a
      unified diff) when FILE differs from COMMITTED (the surface.typed_header
      test)
  shmem_typed_header.py
      print the header on stdout
  --tables PATH   the X-macro tables (default: include/gasket/shmem_type_tables.h
                  of this checkout)

Every typed OpenSHMEM routine (shmem_long_put, shmem_put64,
shmem_ctx_int_atomic_fetch_add, shmem_float_sum_reduce, ...) gets one plain
prototype on one line, so `grep shmem_long_put include/` finds it.  The
types come from the rows of gasket/shmem_type_tables.h, which stays the one
source of truth (shmem/*.cpp, the C11 generic header and the C++ overloads
expand the same rows); this script holds only the prototype templates and
their docstrings, grouped by spec section (FAMILIES below).

The tables are read as text: each `#define NAME(PARAMS) BODY` whose body is a
sequence of calls `X(a, b)` or `OTHER_TABLE(X)`.  A table defined only in one
branch of an `#if` (the complex rows) must sit beside a `GASKET_HAVE_*`
object-like macro in that branch, and be empty in the other: its rows are
written under `#ifdef GASKET_HAVE_*`.  Anything else in the tables file
(another directive, a body that is not a list of calls) is an error, so a
table change cannot be silently misread.
"""
import argparse
import difflib
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_TABLES = os.path.join(HERE, "..", "include", "gasket", "shmem_type_tables.h")
DEFAULT_OUTPUT = os.path.join(HERE, "..", "include", "gasket", "shmem_typed.h")


# ---- reading the tables ------------------------------------------------


class TableError(Exception):
    pass


class Macro:
    def __init__(self, name, params, body, branch):
        self.name, self.params, self.body, self.branch = name, params, body, branch


def logical_lines(text):
    """The file's lines with comments removed and continuations joined."""
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    text = re.sub(r"//[^\n]*", "", text)
    text = text.replace("\\\n", " ")
    return [line.strip() for line in text.splitlines() if line.strip()]


def read_macros(path):
    """name -> [Macro] (one per #if branch that defines it); branch is a tuple
    of (conditional number, branch number) pairs, () outside any #if.  The
    file's include guard is not a conditional."""
    with open(path) as f:
        lines = logical_lines(f.read())
    macros, stack, conditionals = {}, [], 0
    guard = None
    if len(lines) >= 2 and lines[0].startswith("#ifndef") and lines[1].startswith("#define"):
        guard = lines[0].split()[1]
        if lines[1].split()[1:] != [guard]:
            guard = None
    for line in lines:
        if not line.startswith("#"):
            raise TableError(f"not a directive: {line!r}")
        words = line[1:].split(None, 1)
        directive, rest = words[0], (words[1] if len(words) > 1 else "")
        if directive in ("if", "ifdef", "ifndef"):
            if directive == "ifndef" and rest.strip() == guard and not stack:
                stack.append(None)  # the include guard
                continue
            conditionals += 1
            stack.append([conditionals, 0])
        elif directive in ("elif", "else"):
            if not stack or stack[-1] is None:
                raise TableError(f"#{directive} outside a conditional")
            stack[-1][1] += 1
        elif directive == "endif":
            stack.pop()
        elif directive == "define":
            m = re.match(r"(\w+)(\(([^)]*)\))?\s*(.*)$", rest)
            name = m.group(1)
            if name == guard:
                continue
            params = [p.strip() for p in m.group(3).split(",")] if m.group(2) else None
            branch = tuple(tuple(c) for c in stack if c is not None)
            macros.setdefault(name, []).append(Macro(name, params, m.group(4), branch))
        else:
            raise TableError(f"unexpected directive #{directive}")
    if stack:
        raise TableError("unterminated #if")
    return macros


CALL = re.compile(r"\s*(\w+)\s*\(([^()]*)\)\s*")


def calls(body):
    """[(callee, [args])] of a body that is a sequence of calls."""
    out, pos = [], 0
    while pos < len(body):
        m = CALL.match(body, pos)
        if not m:
            raise TableError(f"not a list of calls: {body[pos:]!r}")
        args = [a.strip() for a in m.group(2).split(",")] if m.group(2).strip() else []
        out.append((m.group(1), args))
        pos = m.end()
    return out


class Tables:
    """Expands the X-macro tables of shmem_type_tables.h into rows."""

    ROW = "@row"  # stands for the caller's X: a call of it is a row

    def __init__(self, path):
        self.macros = read_macros(path)

    def _definition(self, name):
        """(Macro, guard) for a function-like macro; guard is the GASKET_HAVE_*
        name when the macro has rows only in one branch of an #if."""
        defs = self.macros.get(name)
        if not defs or defs[0].params is None:
            raise TableError(f"{name} is not a table of shmem_type_tables.h")
        if len(defs) == 1 and not defs[0].branch:
            return defs[0], None
        full = [d for d in defs if d.body.strip()]
        if len(full) != 1 or not all(d.branch for d in defs) or len({d.branch[-1][0] for d in defs}) != 1:
            raise TableError(f"{name}: conditional definitions other than rows in one #if branch")
        branch = full[0].branch
        features = [n for n, ds in self.macros.items()
                    if n.startswith("GASKET_HAVE_") and any(d.params is None and d.branch == branch for d in ds)]
        if len(features) != 1:
            raise TableError(f"{name}: its #if branch defines no single GASKET_HAVE_* macro to test")
        return full[0], features[0]

    def _expand(self, name, args, guards):
        macro, guard = self._definition(name)
        if len(macro.params) != len(args):
            raise TableError(f"{name} takes {len(macro.params)} arguments")
        if guard:
            guards = guards + (guard,)
        binding = dict(zip(macro.params, args))
        for callee, call_args in calls(macro.body):
            callee = binding.get(callee, callee)
            call_args = [binding.get(a, a) for a in call_args]
            if callee == self.ROW:
                yield tuple(call_args), guards
            else:
                yield from self._expand(callee, call_args, guards)

    def rows(self, name):
        """[(row, guards)] of table NAME(X): row = the arguments of one X(...)."""
        return list(self._expand(name, [self.ROW], ()))

    def ops(self, name):
        """The operator names (third argument of each F(...)) of an operator
        macro NAME(F, TYPE, NAME), e.g. and, or, xor of GASKET_AMO_BITWISE_OPS."""
        return [row[2] for row, _ in self._expand(name, [self.ROW, "TYPE", "NAME"], ())]


# ---- the families: templates and their docstrings ------------------------
#
# A section is a docstring and its entries.  An entry is one routine (or the
# routine and its ctx form): its spec section, the table whose rows it is
# written for, and its prototype templates ({TYPE}, {NAME} = TYPENAME, or
# {BITS} = SIZE for the sized tables; {OP} for entries over an operator
# macro, whose spec section then depends on the operator).  Each template is
# written for every row before the next template; entries are written in
# spec-section order (entries of one section number in the order listed).


# Every prototype is written `RESULT NAME(PARAMS) GASKET_NOEXCEPT;`
# (gasket/noexcept.h: noexcept in C++, nothing in C): the templates below
# give `RESULT NAME(PARAMS);` and Entry adds the specification, so no
# routine can be written without it.
NOEXCEPT = "GASKET_NOEXCEPT"


def with_noexcept(template):
    """`RESULT NAME(PARAMS);` -> `RESULT NAME(PARAMS) GASKET_NOEXCEPT;`."""
    if not template.endswith(");"):
        raise TableError(f"prototype template does not end with ');': {template!r}")
    return f"{template[:-1]} {NOEXCEPT};"


class Entry:
    def __init__(self, section, table, *templates, ops=None, note=None):
        self.section, self.table = section, table
        self.templates = tuple(with_noexcept(t) for t in templates)
        self.ops, self.note = ops, note


class Section:
    def __init__(self, title, doc, entries):
        self.title, self.doc, self.entries = title, doc, entries


def typed_and_ctx(section, table, routine, args, result="void"):
    """shmem_{NAME}_ROUTINE(args) and shmem_ctx_{NAME}_ROUTINE(shmem_ctx_t ctx, args)."""
    return Entry(section, table, f"{result} shmem_{{NAME}}_{routine}({args});",
                 f"{result} shmem_ctx_{{NAME}}_{routine}(shmem_ctx_t ctx, {args});")


def sized_and_ctx(section, routine, suffix, args):
    """shmem_ROUTINE{BITS}SUFFIX(args) and the shmem_ctx_ form, for GASKET_RMA_SIZES."""
    return Entry(section, "GASKET_RMA_SIZES", f"void shmem_{routine}{{BITS}}{suffix}({args});",
                 f"void shmem_ctx_{routine}{{BITS}}{suffix}(shmem_ctx_t ctx, {args});")


RMA = "GASKET_STD_RMA_TYPES"
CONTIG = "{TYPE} *dest, const {TYPE} *source, size_t nelems, int pe"
STRIDED = "{TYPE} *dest, const {TYPE} *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe"
BLOCKS = "{TYPE} *dest, const {TYPE} *source, ptrdiff_t dst, ptrdiff_t sst, size_t bsize, size_t nblocks, int pe"
VOID_CONTIG = "void *dest, const void *source, size_t nelems, int pe"
VOID_STRIDED = "void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe"
VOID_BLOCKS = "void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t bsize, size_t nblocks, int pe"

RMA_SECTION = Section("§9.6 remote memory access: typed and sized forms", """\
Blocking put (§9.6.1.1) returns when `source` may be reused; delivery is
completed by shmem_quiet or a barrier.  Blocking get (§9.6.1.5) returns
with the data in `dest`.  p/g (§9.6.1.2, §9.6.1.6) move one element.
iput/iget (§9.6.1.3, §9.6.1.7): element i goes from source[i*sst] to
dest[i*dst].  ibput/ibget (§9.6.1.4, §9.6.1.8): block b of bsize elements
goes from source[b*sst] to dest[b*dst].  put_nbi/get_nbi (§9.6.2) return
at once; shmem_quiet completes them.
Sized forms: SIZE in bits (8..128), nelems and strides in SIZE/8-byte units.
The byte forms (shmem_putmem, ...) are in shmem.h.
Errors end the job with a message naming the routine and the value: a PE
outside the context's team, a non-symmetric address, a range past the end
of its segment, or a size whose byte count overflows size_t (nelems times
the element size; for strided forms the span of the blocks).  nelems 0
(contiguous forms): only the PE is checked, the addresses may be anything,
NULL included (Annex C), and nothing moves.""", [
    typed_and_ctx("9.6.1.1", RMA, "put", CONTIG),
    sized_and_ctx("9.6.1.1", "put", "", VOID_CONTIG),
    typed_and_ctx("9.6.1.2", RMA, "p", "{TYPE} *dest, {TYPE} value, int pe"),
    typed_and_ctx("9.6.1.3", RMA, "iput", STRIDED),
    sized_and_ctx("9.6.1.3", "iput", "", VOID_STRIDED),
    typed_and_ctx("9.6.1.4", RMA, "ibput", BLOCKS),
    sized_and_ctx("9.6.1.4", "ibput", "", VOID_BLOCKS),
    typed_and_ctx("9.6.1.5", RMA, "get", CONTIG),
    sized_and_ctx("9.6.1.5", "get", "", VOID_CONTIG),
    typed_and_ctx("9.6.1.6", RMA, "g", "const {TYPE} *source, int pe", result="{TYPE}"),
    typed_and_ctx("9.6.1.7", RMA, "iget", STRIDED),
    sized_and_ctx("9.6.1.7", "iget", "", VOID_STRIDED),
    typed_and_ctx("9.6.1.8", RMA, "ibget", BLOCKS),
    sized_and_ctx("9.6.1.8", "ibget", "", VOID_BLOCKS),
    typed_and_ctx("9.6.2.1", RMA, "put_nbi", CONTIG),
    sized_and_ctx("9.6.2.1", "put", "_nbi", VOID_CONTIG),
    typed_and_ctx("9.6.2.2", RMA, "get_nbi", CONTIG),
    sized_and_ctx("9.6.2.2", "get", "_nbi", VOID_CONTIG),
])

EXT, STD, BIT = "GASKET_EXT_AMO_TYPES", "GASKET_STD_AMO_TYPES", "GASKET_BITWISE_AMO_TYPES"
BITWISE_AMO_OPS = "GASKET_AMO_BITWISE_OPS"

AMO_SECTION = Section("§9.7 atomic memory operations", """\
`dest`/`source` are symmetric addresses of one TYPE object on PE `pe`.
Every AMO is a hardware atomic on the target's memory -- by this PE
through the node's shared mapping, or by an Active Message handler on
the target -- so all AMOs on one object are atomic with respect to each
other, whatever their mix.  Fetching routines return the value before
the operation.  The _nbi forms store it in *fetch (local memory) once
complete: by the next shmem_quiet (they may complete sooner).
Non-fetching AMOs are complete at the target by the next shmem_quiet,
and ordered by shmem_fence like puts.  Errors (PE out of range, address
not symmetric or past its segment) end the job with a message naming
the routine.  The ctx forms count `pe` in the context's team and are
completed by that context's quiet.""", [
    typed_and_ctx("9.7.1.1", EXT, "atomic_fetch", "const {TYPE} *source, int pe", result="{TYPE}"),
    typed_and_ctx("9.7.1.2", EXT, "atomic_set", "{TYPE} *dest, {TYPE} value, int pe"),
    typed_and_ctx("9.7.1.3", STD, "atomic_compare_swap", "{TYPE} *dest, {TYPE} cond, {TYPE} value, int pe",
                  result="{TYPE}"),
    typed_and_ctx("9.7.1.4", EXT, "atomic_swap", "{TYPE} *dest, {TYPE} value, int pe", result="{TYPE}"),
    typed_and_ctx("9.7.1.5", STD, "atomic_fetch_inc", "{TYPE} *dest, int pe", result="{TYPE}"),
    typed_and_ctx("9.7.1.6", STD, "atomic_inc", "{TYPE} *dest, int pe"),
    typed_and_ctx("9.7.1.7", STD, "atomic_fetch_add", "{TYPE} *dest, {TYPE} value, int pe", result="{TYPE}"),
    typed_and_ctx("9.7.1.8", STD, "atomic_add", "{TYPE} *dest, {TYPE} value, int pe"),
    Entry({"and": "9.7.1.9", "or": "9.7.1.11", "xor": "9.7.1.13"}, BIT,
          "{TYPE} shmem_{NAME}_atomic_fetch_{OP}({TYPE} *dest, {TYPE} value, int pe);",
          "{TYPE} shmem_ctx_{NAME}_atomic_fetch_{OP}(shmem_ctx_t ctx, {TYPE} *dest, {TYPE} value, int pe);",
          ops=BITWISE_AMO_OPS),
    Entry({"and": "9.7.1.10", "or": "9.7.1.12", "xor": "9.7.1.14"}, BIT,
          "void shmem_{NAME}_atomic_{OP}({TYPE} *dest, {TYPE} value, int pe);",
          "void shmem_ctx_{NAME}_atomic_{OP}(shmem_ctx_t ctx, {TYPE} *dest, {TYPE} value, int pe);",
          ops=BITWISE_AMO_OPS),
    typed_and_ctx("9.7.2.1", EXT, "atomic_fetch_nbi", "{TYPE} *fetch, const {TYPE} *source, int pe"),
    typed_and_ctx("9.7.2.2", STD, "atomic_compare_swap_nbi",
                  "{TYPE} *fetch, {TYPE} *dest, {TYPE} cond, {TYPE} value, int pe"),
    typed_and_ctx("9.7.2.3", EXT, "atomic_swap_nbi", "{TYPE} *fetch, {TYPE} *dest, {TYPE} value, int pe"),
    typed_and_ctx("9.7.2.4", STD, "atomic_fetch_inc_nbi", "{TYPE} *fetch, {TYPE} *dest, int pe"),
    typed_and_ctx("9.7.2.5", STD, "atomic_fetch_add_nbi", "{TYPE} *fetch, {TYPE} *dest, {TYPE} value, int pe"),
    Entry({"and": "9.7.2.6", "or": "9.7.2.7", "xor": "9.7.2.8"}, BIT,
          "void shmem_{NAME}_atomic_fetch_{OP}_nbi({TYPE} *fetch, {TYPE} *dest, {TYPE} value, int pe);",
          "void shmem_ctx_{NAME}_atomic_fetch_{OP}_nbi(shmem_ctx_t ctx, {TYPE} *fetch, {TYPE} *dest, {TYPE} value, "
          "int pe);",
          ops=BITWISE_AMO_OPS),
])

OLD_EXT, OLD_STD = "GASKET_DEPRECATED_EXT_AMO_TYPES", "GASKET_DEPRECATED_STD_AMO_TYPES"
DEPRECATED_AMO_SECTION = Section("Annex F.2.6 deprecated AMO names", """\
Deprecated AMO names (Annex F.2.6): the same operations as the
shmem_TYPENAME_atomic_ routine each heading names.  1.6 lists them for
float, double, int, long and long long (fetch/set/swap) and int, long and
long long (the others); like other implementations, Gasket gives them for
every row of Table 7 (fetch/set/swap) and Table 6 (the others).""", [
    Entry("F.2.6", OLD_EXT, "{TYPE} shmem_{NAME}_fetch(const {TYPE} *source, int pe);",
          note="= shmem_TYPENAME_atomic_fetch"),
    Entry("F.2.6", OLD_EXT, "void shmem_{NAME}_set({TYPE} *dest, {TYPE} value, int pe);",
          note="= shmem_TYPENAME_atomic_set"),
    Entry("F.2.6", OLD_EXT, "{TYPE} shmem_{NAME}_swap({TYPE} *dest, {TYPE} value, int pe);",
          note="= shmem_TYPENAME_atomic_swap"),
    Entry("F.2.6", OLD_STD, "{TYPE} shmem_{NAME}_cswap({TYPE} *dest, {TYPE} cond, {TYPE} value, int pe);",
          note="= shmem_TYPENAME_atomic_compare_swap"),
    Entry("F.2.6", OLD_STD, "{TYPE} shmem_{NAME}_finc({TYPE} *dest, int pe);",
          note="= shmem_TYPENAME_atomic_fetch_inc"),
    Entry("F.2.6", OLD_STD, "void shmem_{NAME}_inc({TYPE} *dest, int pe);",
          note="= shmem_TYPENAME_atomic_inc"),
    Entry("F.2.6", OLD_STD, "{TYPE} shmem_{NAME}_fadd({TYPE} *dest, {TYPE} value, int pe);",
          note="= shmem_TYPENAME_atomic_fetch_add"),
    Entry("F.2.6", OLD_STD, "void shmem_{NAME}_add({TYPE} *dest, {TYPE} value, int pe);",
          note="= shmem_TYPENAME_atomic_add"),
])

SIGNAL = "uint64_t *sig_addr, uint64_t signal, int sig_op, int pe"
SIGNAL_SECTION = Section("§9.8 signaling: put-with-signal, typed and sized forms", """\
put_signal: puts nelems elements (bytes for putmem, SIZE/8 bytes for
putSIZE) from source to dest on `pe`, then updates the uint64_t signal at
symmetric sig_addr on `pe` -- SHMEM_SIGNAL_SET stores `signal`,
SHMEM_SIGNAL_ADD adds it, atomically -- such that a PE that sees the
signal's new value also sees the data.  The _nbi forms may return
before the source may be reused; shmem_quiet completes them.  A sig_op
other than the two constants, or nelems whose byte count overflows size_t,
is fatal.  nelems 0: no data (dest and source may be anything, NULL
included), the signal is still updated.  The byte forms
(shmem_putmem_signal, ...) and signal_add/set/fetch are in shmem.h.""", [
    typed_and_ctx("9.8.3", RMA, "put_signal", f"{{TYPE}} *dest, const {{TYPE}} *source, size_t nelems, {SIGNAL}"),
    sized_and_ctx("9.8.3", "put", "_signal", f"void *dest, const void *source, size_t nelems, {SIGNAL}"),
    typed_and_ctx("9.8.4", RMA, "put_signal_nbi",
                  f"{{TYPE}} *dest, const {{TYPE}} *source, size_t nelems, {SIGNAL}"),
    sized_and_ctx("9.8.4", "put", "_signal_nbi", f"void *dest, const void *source, size_t nelems, {SIGNAL}"),
])

SIZES = "GASKET_COLL_SIZES"
ACTIVE_SET = "int PE_start, int logPE_stride, int PE_size, long *pSync"
COLL_DATA_SECTION = Section("§9.10.5-8 collectives: data movement, typed and sized forms", """\
The conventions of every collective (team and active-set forms, errors,
completion) are at the top of gasket/shmem_coll.h, which also holds the
byte forms (shmem_alltoallmem, ...).
alltoall (§9.10.5): source holds n_pes blocks of nelems elements, block
  j for team PE j; dest receives block i from team PE i (both n_pes *
  nelems elements).
alltoalls (§9.10.6): as alltoall with strides: element k of block j is
  source[sst * (j * nelems + k)], landing at dest[dst * (i * nelems + k)]
  on PE j for sender i.
broadcast (§9.10.7): nelems elements of source on team PE PE_root to dest
  on every PE of the team, the root included.
collect (§9.10.8): dest = the concatenation of every PE's nelems elements
  of source in team PE order; nelems may differ between PEs (the total
  is at most 2^31-1 bytes; more ends the job with a message).
fcollect (§9.10.8): collect with the same nelems on every PE.
Deprecated active-set forms on 4- or 8-byte elements (SIZE 32 or 64), as
the team forms over the active set, except that broadcast leaves dest on
the root untouched (PE_root counts within the active set,
0..PE_size-1).  pSync: SHMEM_ALLTOALL_SYNC_SIZE, SHMEM_ALLTOALLS_SYNC_SIZE,
SHMEM_BCAST_SYNC_SIZE, SHMEM_COLLECT_SYNC_SIZE longs.""", [
    Entry("9.10.5", RMA, "int shmem_{NAME}_alltoall(shmem_team_t team, {TYPE} *dest, const {TYPE} *source, "
          "size_t nelems);"),
    Entry("9.10.5", SIZES, f"void shmem_alltoall{{BITS}}(void *dest, const void *source, size_t nelems, "
          f"{ACTIVE_SET});"),
    Entry("9.10.6", RMA, "int shmem_{NAME}_alltoalls(shmem_team_t team, {TYPE} *dest, const {TYPE} *source, "
          "ptrdiff_t dst, ptrdiff_t sst, size_t nelems);"),
    Entry("9.10.6", SIZES, f"void shmem_alltoalls{{BITS}}(void *dest, const void *source, ptrdiff_t dst, "
          f"ptrdiff_t sst, size_t nelems, {ACTIVE_SET});"),
    Entry("9.10.7", RMA, "int shmem_{NAME}_broadcast(shmem_team_t team, {TYPE} *dest, const {TYPE} *source, "
          "size_t nelems, int PE_root);"),
    Entry("9.10.7", SIZES, f"void shmem_broadcast{{BITS}}(void *dest, const void *source, size_t nelems, "
          f"int PE_root, {ACTIVE_SET});"),
    Entry("9.10.8", RMA, "int shmem_{NAME}_collect(shmem_team_t team, {TYPE} *dest, const {TYPE} *source, "
          "size_t nelems);"),
    Entry("9.10.8", SIZES, f"void shmem_collect{{BITS}}(void *dest, const void *source, size_t nelems, "
          f"{ACTIVE_SET});"),
    Entry("9.10.8", RMA, "int shmem_{NAME}_fcollect(shmem_team_t team, {TYPE} *dest, const {TYPE} *source, "
          "size_t nelems);"),
    Entry("9.10.8", SIZES, f"void shmem_fcollect{{BITS}}(void *dest, const void *source, size_t nelems, "
          f"{ACTIVE_SET});"),
])

REDUCE_SECTIONS = {"and": "9.10.9.1", "or": "9.10.9.2", "xor": "9.10.9.3", "max": "9.10.9.4",
                   "min": "9.10.9.5", "sum": "9.10.9.6", "prod": "9.10.9.7"}
TEAM_REDUCE = "int shmem_{NAME}_{OP}_reduce(shmem_team_t team, {TYPE} *dest, const {TYPE} *source, size_t nreduce);"
TO_ALL = ("void shmem_{NAME}_{OP}_to_all({TYPE} *dest, const {TYPE} *source, int nreduce, int PE_start, "
          "int logPE_stride, int PE_size, {TYPE} *pWrk, long *pSync);")
REDUCE_SECTION = Section("§9.10.9 reductions, §9.10.10 scans (Tables 10 and 11)", """\
OP_reduce: dest[i] = source[i] of team PE 0 OP source[i] of PE 1 OP ...,
  i < nreduce, on every PE of the team.  AND, OR, XOR are bitwise; SUM
  and PROD of integers wrap as the type's arithmetic does; floating-point
  results depend on MPI's order of operations.
sum_inscan: dest[i] on team PE p = the sum of source[i] over PEs 0..p;
sum_exscan: over PEs 0..p-1, and 0 on PE 0.
Deprecated active-set reductions (Table 11): as OP_reduce over the active
set; nreduce >= 0 (negative ends the job).  pWrk: max(nreduce/2 + 1,
SHMEM_REDUCE_MIN_WRKDATA_SIZE) elements; pSync: SHMEM_REDUCE_SYNC_SIZE
longs.""", [
    Entry(REDUCE_SECTIONS, "GASKET_TEAM_REDUCE_BITWISE_TYPES", TEAM_REDUCE, ops="GASKET_REDUCE_BITWISE_OPS"),
    Entry(REDUCE_SECTIONS, "GASKET_TO_ALL_BITWISE_TYPES", TO_ALL, ops="GASKET_REDUCE_BITWISE_OPS"),
    Entry(REDUCE_SECTIONS, "GASKET_TEAM_REDUCE_MINMAX_TYPES", TEAM_REDUCE, ops="GASKET_REDUCE_MINMAX_OPS"),
    Entry(REDUCE_SECTIONS, "GASKET_TO_ALL_MINMAX_TYPES", TO_ALL, ops="GASKET_REDUCE_MINMAX_OPS"),
    Entry(REDUCE_SECTIONS, "GASKET_TEAM_REDUCE_ARITH_TYPES", TEAM_REDUCE, ops="GASKET_REDUCE_ARITH_OPS"),
    Entry(REDUCE_SECTIONS, "GASKET_TO_ALL_ARITH_TYPES", TO_ALL, ops="GASKET_REDUCE_ARITH_OPS"),
    Entry("9.10.10", "GASKET_TEAM_REDUCE_ARITH_TYPES",
          "int shmem_{NAME}_sum_inscan(shmem_team_t team, {TYPE} *dest, const {TYPE} *source, size_t nelems);",
          "int shmem_{NAME}_sum_exscan(shmem_team_t team, {TYPE} *dest, const {TYPE} *source, size_t nelems);"),
])

P2P, P2P_SET = "GASKET_P2P_SYNC_TYPES", "GASKET_P2P_SET_TYPES"
SET_ARGS = "{TYPE} *ivars, size_t nelems, const int *status, int cmp"
SOME_ARGS = "{TYPE} *ivars, size_t nelems, size_t *indices, const int *status, int cmp"
P2P_SECTION = Section("§9.11 point-to-point synchronization", """\
`ivar` is a symmetric address on this PE; `cmp` one of SHMEM_CMP_*
(anything else is fatal).  wait_until (§9.11.1) blocks until
`*ivar cmp cmp_value` holds; test (§9.11.8) returns 1 if it holds now,
else 0.
§9.11.2-7, §9.11.9-14: over `nelems` objects ivars[0..nelems-1] (symmetric,
this PE); status[i] != 0 excludes ivars[i] (status may be NULL: none
excluded).  The _vector forms compare ivars[i] with cmp_values[i].
 wait_until_all: returns when every included ivar satisfies cmp.
 wait_until_any: returns the index of one satisfying ivar; SIZE_MAX if
   every ivar is excluded or nelems is 0 (returns at once).
 wait_until_some: stores the indices of all satisfying ivars (at least
   one) in `indices` and returns their count; 0 if none is included.
 test_all: 1 if every included ivar satisfies cmp now (also when none
   is included), else 0.
 test_any: an index of a satisfying ivar, or SIZE_MAX.
 test_some: the count of satisfying ivars, their indices in `indices`.
The _any forms are fair: a thread's next call on the same ivars starts
after the index it returned last, so repeated calls return every
satisfying index.  Besides Table 6 these exist for short and unsigned
short, as other implementations offer them.
Waiting spins briefly, then polls politely (serving Active Messages and
yielding the core).  A bad cmp is fatal.
shmem_signal_wait_until (§9.11.15) is in shmem.h.""", [
    Entry("9.11.1", P2P, "void shmem_{NAME}_wait_until({TYPE} *ivar, int cmp, {TYPE} cmp_value);"),
    Entry("9.11.2", P2P_SET, f"void shmem_{{NAME}}_wait_until_all({SET_ARGS}, {{TYPE}} cmp_value);"),
    Entry("9.11.3", P2P_SET, f"size_t shmem_{{NAME}}_wait_until_any({SET_ARGS}, {{TYPE}} cmp_value);"),
    Entry("9.11.4", P2P_SET, f"size_t shmem_{{NAME}}_wait_until_some({SOME_ARGS}, {{TYPE}} cmp_value);"),
    Entry("9.11.5", P2P_SET, f"void shmem_{{NAME}}_wait_until_all_vector({SET_ARGS}, const {{TYPE}} *cmp_values);"),
    Entry("9.11.6", P2P_SET,
          f"size_t shmem_{{NAME}}_wait_until_any_vector({SET_ARGS}, const {{TYPE}} *cmp_values);"),
    Entry("9.11.7", P2P_SET,
          f"size_t shmem_{{NAME}}_wait_until_some_vector({SOME_ARGS}, const {{TYPE}} *cmp_values);"),
    Entry("9.11.8", P2P, "int shmem_{NAME}_test({TYPE} *ivar, int cmp, {TYPE} cmp_value);"),
    Entry("9.11.9", P2P_SET, f"int shmem_{{NAME}}_test_all({SET_ARGS}, {{TYPE}} cmp_value);"),
    Entry("9.11.10", P2P_SET, f"size_t shmem_{{NAME}}_test_any({SET_ARGS}, {{TYPE}} cmp_value);"),
    Entry("9.11.11", P2P_SET, f"size_t shmem_{{NAME}}_test_some({SOME_ARGS}, {{TYPE}} cmp_value);"),
    Entry("9.11.12", P2P_SET, f"int shmem_{{NAME}}_test_all_vector({SET_ARGS}, const {{TYPE}} *cmp_values);"),
    Entry("9.11.13", P2P_SET, f"size_t shmem_{{NAME}}_test_any_vector({SET_ARGS}, const {{TYPE}} *cmp_values);"),
    Entry("9.11.14", P2P_SET,
          f"size_t shmem_{{NAME}}_test_some_vector({SOME_ARGS}, const {{TYPE}} *cmp_values);"),
])

DEPRECATED_WAIT_SECTION = Section("Annex F.2.10 deprecated shmem_TYPENAME_wait", """\
Deprecated (Annex F.2.10): wait until *ivar != cmp_value.  The untyped
shmem_wait (long) and shmem_wait_until are in shmem.h.""", [
    Entry("F.2.10", "GASKET_DEPRECATED_WAIT_TYPES", "void shmem_{NAME}_wait({TYPE} *ivar, {TYPE} cmp_value);"),
])

FAMILIES = [RMA_SECTION, AMO_SECTION, DEPRECATED_AMO_SECTION, SIGNAL_SECTION, COLL_DATA_SECTION,
            REDUCE_SECTION, P2P_SECTION, DEPRECATED_WAIT_SECTION]

# Tables whose rows are X(SIZE-in-bits, bytes); every other row is X(TYPE, TYPENAME).
SIZED_TABLES = {"GASKET_RMA_SIZES", "GASKET_COLL_SIZES"}


# ---- writing the header ---------------------------------------------------

HEADER = """\
/*
 * gasket/shmem_typed.h -- every typed OpenSHMEM 1.6 routine (the TYPENAME
 * and SIZE families: shmem_long_put, shmem_put64, shmem_ctx_int_atomic_add,
 * shmem_float_sum_reduce, ...), one plain prototype a line, each
 * GASKET_NOEXCEPT (gasket/noexcept.h: noexcept in C++, nothing in C).
 *
 * GENERATED by cmake/shmem_typed_header.py from the rows of
 * gasket/shmem_type_tables.h: do not edit.  After changing a table (or a
 * template in the script), run
 *     python3 cmake/shmem_typed_header.py --write
 * and commit the result; the test surface.typed_header fails, printing the
 * difference, while this file is out of date.
 *
 * Included by shmem.h inside its extern "C" block, after the handles
 * (shmem_ctx_t, shmem_team_t); do not include it directly.  The
 * conventions at the top of shmem.h (PE numbers, units of nelems and
 * strides, errors) hold for every routine here.
 *
 * Grouped by spec section.  Each heading names the routine's spec section
 * and the table it is written for: X(TYPE, TYPENAME) rows give TYPE and
 * TYPENAME, X(SIZE, bytes) rows SIZE; routines over an operator column
 * (and, or, xor, ...) take OP from the named operator macro.  Rows under
 * #ifdef GASKET_HAVE_COMPLEX exist when the compiler has complex types.
 */
#ifndef GASKET_SHMEM_TYPED_H
#define GASKET_SHMEM_TYPED_H

#include <gasket/noexcept.h>"""

FOOTER = """
#endif /* GASKET_SHMEM_TYPED_H */
"""


def section_key(number):
    """Sort key of a spec section number: "9.7.1.10" -> (9, 7, 1, 10)."""
    return tuple(int(p) if p.isdigit() else p for p in number.split("."))


def generic_name(template, op):
    """The synopsis name of a template: shmem_{NAME}_put -> shmem_TYPENAME_put."""
    name = re.search(r"(shmem\w*(?:\{\w+\}\w*)*)\(", template).group(1)
    return name.replace("{NAME}", "TYPENAME").replace("{BITS}", "SIZE").replace("{OP}", op or "")


def section_comment(title, doc):
    """/* ---- title ---- ... * doc ... */, as shmem.h heads its sections."""
    rule = f"/* ---- {title} "
    rule += "-" * max(4, 78 - len(rule))
    return [rule] + [f" * {line}".rstrip() for line in doc.splitlines()] + [" */"]


def guarded(lines_with_guards):
    """Lines, with runs of rows under one guard set wrapped in #ifdef/#endif."""
    out, current = [], ()
    for line, guards in lines_with_guards + [(None, ())]:
        if guards != current:
            if current:
                out.append("#endif")
            if guards:
                cond = " && ".join(f"defined({g})" for g in guards)
                out.append(f"#ifdef {guards[0]}" if len(guards) == 1 else f"#if {cond}")
            current = guards
        if line is not None:
            out.append(line)
    return out


def subgroups(section, tables):
    """[(section number, heading, lines)] of a section's entries, in spec order."""
    groups = []
    for entry in section.entries:
        ops = tables.ops(entry.ops) if entry.ops else [None]
        rows = tables.rows(entry.table)
        cols = ("BITS", "BYTES") if entry.table in SIZED_TABLES else ("TYPE", "NAME")
        for op in ops:
            number = entry.section.get(op) if isinstance(entry.section, dict) else entry.section
            if number is None:
                raise TableError(f"{entry.ops}: operator {op!r} has no spec section in this script")
            names = ", ".join(generic_name(t, op) for t in entry.templates)
            source = entry.table + (f" x {entry.ops}" if entry.ops else "")
            where = f"§{number}" if number[0].isdigit() else f"Annex {number}"
            heading = f"/* {where} {names}" + (f" {entry.note}" if entry.note else "") + f" -- {source} */"
            lines = []
            for template in entry.templates:
                rows_out = []
                for row, guards in rows:
                    if len(row) != 2:
                        raise TableError(f"{entry.table}: row {row} is not X(a, b)")
                    fields = dict(zip(cols, row), OP=op or "")
                    rows_out.append((template.format(**fields), guards))
                lines += guarded(rows_out)
            groups.append((number, heading, lines))
    groups.sort(key=lambda g: section_key(g[0]))
    return groups


def render(tables):
    out = [HEADER]
    sections = [(section, subgroups(section, tables)) for section in FAMILIES]
    if any(line.startswith("#if") for _, groups in sections for _, _, lines in groups for line in lines):
        out.append("#include <gasket/shmem_type_tables.h> /* the GASKET_HAVE_* tested below */")
    count = 0
    for section, groups in sections:
        out.append("")
        out += section_comment(section.title, section.doc)
        for _, heading, lines in groups:
            out += ["", heading]
            out += lines
            count += sum(1 for line in lines if not line.startswith("#"))
    out.append(FOOTER)
    return "\n".join(out), count


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tables", default=DEFAULT_TABLES)
    mode = ap.add_mutually_exclusive_group()
    mode.add_argument("--write", action="store_true", help="regenerate include/gasket/shmem_typed.h")
    mode.add_argument("--output", help="write the header here")
    ap.add_argument("--check", help="with --output: fail, printing the diff, when the output differs from this file")
    args = ap.parse_args()
    if args.check and not args.output:
        ap.error("--check needs --output")

    try:
        text, count = render(Tables(args.tables))
    except TableError as e:
        sys.exit(f"shmem_typed_header.py: {args.tables}: {e}")

    output = DEFAULT_OUTPUT if args.write else args.output
    if output is None:
        sys.stdout.write(text)
        return
    os.makedirs(os.path.dirname(os.path.abspath(output)), exist_ok=True)
    with open(output, "w") as f:
        f.write(text)
    if args.write:
        print(f"wrote {os.path.relpath(output)}: {count} prototypes")
    if args.check:
        with open(args.check) as f:
            committed = f.read()
        if committed != text:
            sys.stdout.writelines(difflib.unified_diff(
                committed.splitlines(True), text.splitlines(True), fromfile=args.check, tofile=output))
            sys.exit(f"\n{args.check} differs from what cmake/shmem_typed_header.py generates from the "
                     f"type tables (diff above); run `python3 cmake/shmem_typed_header.py --write` "
                     f"and commit the result")
        print(f"{args.check}: up to date ({count} prototypes)")


if __name__ == "__main__":
    main()
