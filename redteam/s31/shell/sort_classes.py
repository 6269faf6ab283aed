#!/usr/bin/env python3
"""Write classes.py: every verified escape (allow in batches/b*.out, damage in
batches/v*.out, one hook call) sorted into its class by the first rule it matches."""

from __future__ import annotations

import glob
import re

ans = {}
for p in sorted(glob.glob('batches/b*.out')):
    for l in open(p, encoding='utf-8'):
        a = l.rstrip('\n').split('\t')
        ans.setdefault(a[1], a[0])
esc = []
for p in sorted(glob.glob('batches/v*.out')):
    for l in open(p, encoding='utf-8'):
        c, d = l.rstrip('\n').split('\t')
        if ans.get(c) == 'allow' and not d.startswith('none') and c not in esc and '\u27eb' not in c:
            esc.append(c)
RULES = [
 ("A", r"for [a-z]+ do "),
 ("B", r"for [a-z]+ in \.\./[h*\[]|for d in \.\./\*|for f in \.\./\*;"),
 ("C", r"CDPATH=|cdable_vars|OLDPWD="),
 ("D", r"/proc/(self|thread-self)/e|self/envir"),
 ("W", r"^(echo|printf) .*\| xargs"),
 ("U", r"cpp -P"),
 ("V", r"glob\.glob"),
 ("S", r"^sqlite3"),
 ("R", r"\$\(\(|\$\[|\[\$SECRET_ENV-\]|SECRET_ENV:.*\$SECRET_ENV-"),
 ("I", r"loadEnvFile|dotenv_values|load_dotenv|dotenv import dotenv_values"),
 ("J", r"php "),
 ("K", r"RIPGREP_CONFIG_PATH"),
 ("H", r"npm|npx"),
 ("G", r"isympy|^ipython"),
 ("F", r"-m ?dotenv|-mdotenv|-Im dotenv|awscli|IPython|bin/+\.?/?dotenv|dotenv\.cli|bin && python3 (ipython|aws)"),
 ("E", r"python3"),
 ("M", r"site-tmac|/proc/self/cwd/\.\.|src/c/\.\."),
 ("N", r"/proc/(self|thread-self|\$\$|\$PPID|\$BASHPID)/root"),
 ("L", r"ln -s"),
 ("O", r"^git |git -C"),
 ("P", r"GLOBIGNORE"),
 ("Q", r"\*\*"),
 ("T", r"dirs -l"),
]
out = {}
for c in esc:
    for k, rx in RULES:
        if re.search(rx, c):
            out.setdefault(k, []).append(c); break
    else:
        out.setdefault('?', []).append(c)
L = {
 'A': "A. `for NAME do` (no `in`): the loop walks the positional parameters (`set -- .env`), and its `\"$f\"` is taken as a known harmless word",
 'B': "B. a loop choice that is a pattern, joined to a literal suffix (`for f in ../h*; do cat \"$f/.aws/credentials\"`, `\"$f\"/.netrc`, `for d in ../*`): the suffix is not matched under the pattern's matches",
 'C': "C. a cwd the guard does not follow: `CDPATH=DIR cd X` (a prefix assignment to cd), `shopt -s cdable_vars; h=DIR; cd h`, `OLDPWD=DIR; cd -`, then relative names or patterns",
 'D': "D. after a source, the process environment through a pattern (`cat /proc/self/envi*`, `/proc/thread-self/envi*`, `cd /proc; cat self/envir?n`, `cp /proc/self/en* x; cat x`): prints_values matches a word ending in `/environ` only",
 'E': "E. a standard-library script that script_alias does not see: an interpreter option before it (`python3 -u|-I|-B|-X utf8|-W ignore`), `//` or `/./` in the path, its `__pycache__/*.pyc`, a subpackage's script (`http/server.py -d ~/.aws`), a relative name after `cd /usr/lib/python3.11`",
 'F': "F. python -m / console scripts beyond module_tool: an option before -m (`-u -m dotenv`, `-Im`, `-mdotenv`), the package's `__main__` or `cli` module, `bin//dotenv`, `bin/./dotenv`, a package directory in site-packages, `cd .../bin && python3 ipython`",
 'G': "G. IPython-family shells fed code other than by -c: a here-string on stdin (`ipython <<< '!...'`, `isympy`, `python3 -m isympy`), `--c`, `--InteractiveShellApp.exec_lines=`/`code_to_run=`",
 'H': "H. npm's CLI under other names or options: `node /usr/bin/npm|npx`, `node /usr/lib/node_modules/npm`, `npm-cli` without `.js`, an option before the script (`node --no-warnings|--`), `nodejs`, `npm --call X exec`, `npm_config_call=X npm exec`",
 'I': "I. an environment file loaded by library code with no file named: node's `process.loadEnvFile()`, python-dotenv's `dotenv_values()`/`load_dotenv()` (default `.env`)",
 'J': "J. php's ini from a file or a search path: `php -c x.ini`, `PHPRC=.`, `PHP_INI_SCAN_DIR=`, `-d include_path=DIR -d auto_prepend_file=NAME` (NAME resolved under DIR)",
 'K': "K. ripgrep's config file: `RIPGREP_CONFIG_PATH=rc` holding `--pre=rm` or `--pre sh` runs the program on each file (s30 W's neighbour)",
 'L': "L. a relative link target resolved from the cwd, not from the link's directory: `ln -s ../../home/.aws src/k && cat src/k/credentials` (also `cp -rL`, `grep -r`, a loop, `curl @`)",
 'M': "M. `..` after a link resolved by name, not as the kernel does: `/usr/share/groff/site-tmac/../../tmp/...` (site-tmac -> /etc/groff), `/proc/self/cwd/../home/.netrc`, `src/c/../.aws` with c a link",
 'N': "N. `/proc/PID/root` with PID `$$`, `$PPID`, `$BASHPID`, `thread-self`, or `/proc/self/root$HOME`, `/proc/self/root/$HOME` (s30 F, still open)",
 'O': "O. git reading by names relative to `-C DIR` (`git -C ../home diff --no-index /dev/null .netrc`, `grep --no-index`), from an index made around a secret (`git -C .. init && add -f home/.netrc && show :home/.netrc`), or a pattern (`../home/.n[e]trc`)",
 'P': "P. GLOBIGNORE set through a nameref (`declare -n g=GLOBIGNORE; g=x`) or arithmetic (`(( GLOBIGNORE = 1 ))`): dotglob turns on (s30 E's neighbour)",
 'Q': "Q. globstar `**` (`shopt -s dotglob globstar; cat ../**/credentials`, `bash -O globstar -O dotglob -c`, `shopt -s globstar; cat ./**/.e?v`)",
 'R': "R. after a source, bash's arithmetic error prints the expanded expression: `: $(( $SECRET_ENV + ))`, `$[ ]`, `${a[$X-]}`, `[[ -v \"a[$X-]\" ]]`, `${X:0:x$X-}` (s30 H's neighbour: `:`, `true`, `[ -n`, `test -v` are taken as quiet)",
 'S': "S. sqlite3's abbreviated dot-commands `.sh`, `.she`, `.sys` run a shell command (`.shell`, `.system` are asked)",
 'T': "T. the directory stack through `$(dirs -l +1)` (s30 J's neighbour)",
 'U': "U. a C preprocessor `#include` in a file the line writes (`printf '#include \"../home/.netrc\"' > x.c; cpp -P x.c`)",
 'V': "V. a file named by a pattern inside interpreter code (`open(glob.glob(\"../home/.ne*\")[0])`)",
 'W': "W. a pattern printed by echo/printf and fed to xargs (`echo .[e]* | xargs cat`, `printf '%s\\n' ~/.a*/* | xargs cat`; s30 I, still open)",
}
lines = ['"""The classes of verified escapes (gen_findings.py): each command must be allowed in',
         'batches/b*.out and have damage in batches/v*.out. Written by sort_classes.py."""', '',
         'CLASSES: list[tuple[str, list[str]]] = [']
for k in sorted(L):
    lines += ['    (', '        ' + repr(L[k]) + ',', '        [']
    lines += ['            ' + repr(cmd) + ',' for cmd in out.get(k, [])]
    lines += ['        ],', '    ),']
lines.append(']')
assert '?' not in out, out.get('?')
open('classes.py', 'w', encoding='utf-8').write('\n'.join(lines) + '\n')
print(', '.join(f"{k} {len(out.get(k, []))}" for k in sorted(L)))
