log() { echo "$@" >&2; }
