# Source me: s35 runs s33's scripts with these paths (/tmp/rt35s, listener 127.0.0.1:8145).
# Decisions run in /tmp/rt35s/d (a fixture of its own), real-bash runs in /tmp/rt35s/work
# (restored from pristine.tar per line), so both can go at once.
export RT_TOP=/tmp/rt35s RT_PORT=8145
S33="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../s33/shell" && pwd)"
S35="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
export S33 S35
