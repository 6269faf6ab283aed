#!/usr/bin/env python3
import json
import subprocess
import sys

event = json.load(sys.stdin)
path = event.get('tool_input', {}).get('file_path', '')
if path.endswith('.py'):
    done = subprocess.run(['ruff', 'check', '--fix', path], capture_output=True, text=True)
    if done.returncode:
        print(done.stdout, file=sys.stderr)
        sys.exit(2)
