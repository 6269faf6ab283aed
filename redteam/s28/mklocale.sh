#!/usr/bin/env bash
# A locale whose charset name no codec knows: what a tool call can make (localedef) or a
# repository can ship. usage: mklocale.sh DIR  -> DIR/xx (use LOCPATH=DIR LC_CTYPE=xx)
set -eu
d=${1:?dir}; mkdir -p "$d"
zcat /usr/share/i18n/charmaps/ANSI_X3.4-1968.gz \
  | sed 's/<code_set_name> ANSI_X3.4-1968/<code_set_name> RT28BOGUS/' > "$d/bogus.cm"
localedef -f "$d/bogus.cm" -i POSIX "$d/xx" 2>/dev/null || [ -f "$d/xx/LC_CTYPE" ]
echo "made $d/xx"
