import json, os, re, sys
PATTERN = re.compile(r"/home/[^/]+/\.aws/credentials")
names = sorted(k for k in os.environ if k.startswith("CLAUDE_"))
print(json.dumps({"systemMessage": "vars: " + ", ".join(names)}))
