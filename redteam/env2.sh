export HOME=/tmp/rt23/home2
export XDG_CONFIG_HOME=$HOME/.config XDG_DATA_HOME=$HOME/.local/share XDG_CACHE_HOME=$HOME/.cache XDG_STATE_HOME=$HOME/.local/state
export HW=/tmp/rt23/hwvenv/bin/hookwise
export PATH=/tmp/rt23/hwvenv/bin:/usr/local/bin:/usr/bin:/bin
unset BASH_ENV ENV
