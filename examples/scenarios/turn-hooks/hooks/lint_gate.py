"""TurnEnd: report lint problems on stderr, which starts a new turn to fix them.

A real gate would run the linter; this one reports a fixed finding after every user
turn and stays quiet after the turn that its own report started.
"""

import json
import sys

event = json.load(sys.stdin)
print(f"lint gate after {event['sub_id']}")
if not event["is_hook_input_turn"]:
    print("app.py:3: unused import os", file=sys.stderr)
