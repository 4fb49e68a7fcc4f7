"""header_text -- what the public headers declare, as the C compiler sees it.

Shared by the build scripts that read the installed headers' declarations
(pshmem_header.py, gasket_exports.py): preprocessing with the C compiler
means macros, X-macro tables and conditionals are expanded exactly as a
user's C program sees them.
"""
import os
import re
import subprocess

LINEMARKER = re.compile(r'^#\s+\d+\s+"([^"]*)"')


def own_text(cc, includes, header):
    """The text of `header`, preprocessed as C11 with -I for each of
    `includes`, that comes from files under `includes` (system headers are
    left out), as one line."""
    cmd = [cc, "-E", "-std=c11"] + [f"-I{d}" for d in includes] + [header]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    roots = [os.path.realpath(d) + os.sep for d in includes]
    keep, lines = False, []
    for line in out.splitlines():
        m = LINEMARKER.match(line)
        if m:
            keep = any(os.path.realpath(m.group(1)).startswith(r) for r in roots)
            continue
        if keep and not line.startswith("#"):
            lines.append(line)
    return " ".join(lines)


def statements(text):
    """The top-level declarations of `text` (split at ';' outside braces and
    parentheses, and after a function definition's body: a '{' that follows
    a ')' opens one, and its closing '}' ends the definition, so the
    declaration after a static inline function is a statement of its own),
    each with its whitespace collapsed."""
    depth, start, body = 0, 0, False
    for i, ch in enumerate(text):
        if ch in "({":
            if ch == "{" and depth == 0:
                body = text[start:i].rstrip().endswith(")")
            depth += 1
        elif ch in ")}":
            depth -= 1
            if ch == "}" and depth == 0 and body:
                yield " ".join(text[start:i + 1].split())
                start, body = i + 1, False
        elif ch == ";" and depth == 0:
            yield " ".join(text[start:i].split())
            start = i + 1
