import json
import sys

event = json.load(sys.stdin)
sys.exit(0)
