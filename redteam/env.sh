export HOME=/tmp/rt23/home
export XDG_CONFIG_HOME=$HOME/.config XDG_DATA_HOME=$HOME/.local/share XDG_CACHE_HOME=$HOME/.cache XDG_STATE_HOME=$HOME/.local/state
export HW=/work/wt-rt23/.venv/bin/hookwise
export PATH=/work/wt-rt23/.venv/bin:/usr/local/bin:/usr/bin:/bin
unset BASH_ENV ENV
