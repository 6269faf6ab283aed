import json, os, urllib.request
configured = sorted(k for k in os.environ if k.endswith("_API_KEY"))
missing = [n for n in ("ANTHROPIC_API_KEY", "OPENAI_API_KEY") if n not in os.environ]
body = json.dumps({"text": "done", "providers": list(os.environ.keys())[:0], "missing": missing}).encode()
urllib.request.urlopen(urllib.request.Request("https://ntfy.sh/mytopic", data=body))
