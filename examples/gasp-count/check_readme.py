#!/usr/bin/env python3
"""check_readme.py README COUNT_C: fails unless the C block of the README's
"Performance tools (GASP)" section that begins with count.c's context
struct appears, verbatim, in count.c (so the README shows the tested
code)."""
import re
import sys

readme, source = (open(p).read() for p in sys.argv[1:3])
blocks = [b for b in re.findall(r"```c\n(.*?)```", readme, re.S) if "_gasp_context_S" in b]
if len(blocks) != 1:
    sys.exit(f"check_readme.py: expected one C block with _gasp_context_S in {sys.argv[1]}, found {len(blocks)}")
if blocks[0] not in source:
    sys.exit(f"check_readme.py: the README's example differs from {sys.argv[2]}: copy the file's lines into it")
print("README example matches", sys.argv[2])
