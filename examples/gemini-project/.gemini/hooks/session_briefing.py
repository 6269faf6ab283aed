"""SessionStart: give the model the project's conventions before the first prompt."""

import json
import sys

event = json.load(sys.stdin)
print(
    json.dumps(
        {
            "systemMessage": f"hooks active for session {event['session_id'][:8]}",
            "hookSpecificOutput": {
                "additionalContext": "Tests live in tests/. Never edit generated files."
            },
        }
    )
)
