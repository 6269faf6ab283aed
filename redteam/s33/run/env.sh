# source me: the fake home and project of the s33 run red team
export RT=/tmp/rt33r
export HOME=$RT/home
export PROJ=$HOME/proj
export HW=/work/wt-rt33r/.venv/bin/hookwise
export PATH=/work/wt-rt33r/.venv/bin:$PATH
unset XDG_CONFIG_HOME XDG_DATA_HOME XDG_STATE_HOME XDG_CACHE_HOME LC_ALL LOCPATH
