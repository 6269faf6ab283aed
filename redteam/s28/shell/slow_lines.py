#!/usr/bin/env python3
"""Write batches/b8.txt: lines meant to make the hook slow or its limits answer wrong
(brace explosions, 60000 words, 20000 commands, 300 nested substitutions, 500 nested
function bodies, a 3000-stage pipe), each followed by a force push or a secret read.
Run `./d.py batches/b8.txt` after it: every one answered ask/deny in under 3.1 s."""

from __future__ import annotations

import pathlib

lines = [
    "echo " + "{a,b}" * 22 + " >/dev/null; cat .env",
    "echo " + "{a,b}" * 22 + " >/dev/null; git push -q -f origin main",
    "true " + "x " * 60000 + "; git push -q -f origin main",
    "; ".join(["true"] * 20000) + "; git push -q -f origin main",
    "echo " + "$(echo " * 300 + "x" + ")" * 300 + "; git push -q -f origin main",
    "x=" + "a" * 200000 + "; git push -q -f origin main",
    "echo {1..2000000} > /dev/null; git push -q -f origin main",
    "a=({1..300000}); git push -q -f origin main",
    "echo " + '"$(echo ' * 150 + "x" + ')"' * 150 + " ; cat .env",
    " | ".join(["cat"] * 3000) + " ; git push -q -f origin main",
    "f() { " * 500 + "true" + "; }" * 500 + "; git push -q -f origin main",
]
out = pathlib.Path(__file__).with_name("batches") / "b8.txt"
out.write_text("\n".join(lines) + "\n", encoding="utf-8")
print(out)
