"""A one-liner's file reads must be accounted for (session 31): the path of a reading call
(``open``, ``readFileSync``, ``File.read``, perl's ``open``, awk's ``getline <``) is a
literal, literals joined, an operand of the line or stdin; anything else (a variable from
the environment, ``input()``, bytes decoded, a reversed string, a loop over a directory
listing) makes the read unverifiable for a rule that protects files, whatever builds the
name. Each such command first prints the planted secret in real bash (where the
interpreter is installed); ordinary one-liners reading named files get through."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.policy.test_s30_loop_choices import _verdict
from tests.policy.test_s31_values import place
from tests.policy.test_unverifiable import MARK

__all__ = ["place"]  # the module fixture, shared

UNACCOUNTED = [
    """python3 -c "import sys; f=sys.stdin.readline().strip(); print(open(f).read())" <<< .env""",
    """F=.env python3 -c "import os; print(open(os.environ['F']).read())" """,
    """F=.env python3 -c "import os; print(open(os.getenv('F')).read())" """,
    """python3 -c "print(open(input()).read())" <<< .env""",
    """echo .env | python3 -c "import sys; print(open(sys.stdin.read().strip()).read())" """,
    """python3 -c "print(open(bytes([46,101,110,118]).decode()).read())" """,
    """python3 -c "n='vne.'; print(open(n[::-1]).read())" """,
    """python3 -c "import glob;[print(open(f).read()) for f in glob.glob('.e*')]" """,
    """python3 -c "import os;[print(open(f).read()) for f in os.listdir('.') if f[:2]=='.e']" """,
    """python3 -c "import pathlib;[print(p.read_text()) for p in pathlib.Path('.').iterdir() if p.is_file()]" """,
    """node -e "console.log(require('fs').readFileSync(Buffer.from('LmVudg==','base64').toString(),'utf8'))" """,
    """F=.env node -e "console.log(require('fs').readFileSync(process.env.F,'utf8'))" """,
    """node -e "const fs=require('fs');for(const f of fs.readdirSync('.'))if(f[1]=='e')console.log(fs.readFileSync(f,'utf8'))" """,
    """F=.env ruby -e 'puts File.read(ENV["F"])'""",
    """ruby -e 'Dir[".e*"].each{|f| puts File.read(f)}'""",
    """F=.env perl -e 'open F,$ENV{F};print <F>'""",
    """perl -e 'open F,scalar reverse("vne.");print <F>'""",
    """perl -e 'for(glob(".e*")){open F,$_;print <F>}'""",
    """F=.env awk 'BEGIN{f=ENVIRON["F"]; while((getline l < f)>0) print l}'""",
    """awk 'BEGIN{f=sprintf("%c%s",46,"env"); while((getline l < f)>0) print l}'""",
]

PASS = [
    """python3 -c "import json; print(json.load(open('src/../notes.txt', encoding='utf-8')))" """,
    """python3 -c "import sys; [print(l, end='') for l in open(sys.argv[1])]" README.md""",
    """python3 -c "import json,sys; print(json.load(sys.stdin))" < notes.txt""",
    """python3 -c "from pathlib import Path; print(Path('README.md').read_text()[:10])" """,
    """python3 -c "print(open(__file__).read())" """,
    """python3 -c "import glob; print(len(glob.glob('src/*.py')))" """,
    """node -e "console.log(require('fs').readFileSync('README.md','utf8').length)" """,
    """node -e "console.log(require('fs').readdirSync('src'))" """,
    """ruby -e 'puts File.read("README.md").size'""",
    """perl -e 'open(my $fh, "<", "README.md") or die; print while <$fh>'""",
    """perl -e 'open F, "README.md"; print <F>'""",
    """awk 'BEGIN{while((getline l < "README.md")>0) n++; print n}'""",
    """php -r 'echo strlen(file_get_contents("README.md"));'""",
]


def _interpreter(command: str) -> str:
    words = command.replace("=", " ").split()
    return next(w for w in words if w in ("python3", "node", "ruby", "perl", "awk", "php"))


@pytest.mark.parametrize("command", UNACCOUNTED)
def test_a_read_the_line_cannot_account_for_is_unverifiable(
    place: dict[str, Any], command: str
) -> None:
    if shutil.which(_interpreter(command)) is not None:
        done = subprocess.run(
            ["bash", "-c", command], cwd=place["project"], env=place["env"],
            stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60, check=False,
        )  # fmt: skip
        assert MARK in done.stdout + done.stderr, (command, done.stdout, done.stderr)
    decision, reason = _verdict(command, place["policy"], place)
    assert decision in ("ask", "deny"), (command, decision, reason)


@pytest.mark.parametrize("command", PASS)
def test_one_liners_reading_named_files_get_through(place: dict[str, Any], command: str) -> None:
    assert _verdict(command, place["policy"], place) == ("none", ""), command


WRITES = [
    """P=.hookwise/policy.yaml python3 -c "import os; open(os.environ['P'],'w').write('x')" """,
    """python3 -c "n='lmay.ycilop/esiwkooh.'; open(n[::-1],'w').write('x')" """,
    """P=.hookwise/policy.yaml node -e "require('fs').writeFileSync(process.env.P,'x')" """,
    """node -e "require('fs').writeFileSync(Buffer.from('Lmhvb2t3aXNlL3BvbGljeS55YW1s','base64').toString(),'x')" """,
    """P=.hookwise/policy.yaml node -e "require('fs').appendFileSync(process.env.P,'x')" """,
    """P=.hookwise/policy.yaml ruby -e 'File.write(ENV["P"], "x")'""",
    """P=.hookwise/policy.yaml perl -e 'open F,">",$ENV{P}; print F "x"'""",
]


@pytest.mark.parametrize("command", WRITES)
def test_a_write_to_a_path_the_line_cannot_account_for_is_unverifiable(
    place: dict[str, Any], tmp_path: Path, command: str
) -> None:
    if shutil.which(_interpreter(command)) is not None:
        project = tmp_path / "project"
        (project / ".hookwise").mkdir(parents=True)
        (project / ".hookwise" / "policy.yaml").write_text("version: 1\n")
        subprocess.run(
            ["bash", "-c", command], cwd=project, env=place["env"],
            stdin=subprocess.DEVNULL, capture_output=True, timeout=60, check=False,
        )  # fmt: skip
        assert (project / ".hookwise" / "policy.yaml").read_text() != "version: 1\n", command
    decision, reason = _verdict(command, place["policy"], place)
    assert decision in ("ask", "deny"), (command, decision, reason)
