#!/usr/bin/env bash
# Prints the first python3 that can import matplotlib: /usr/bin/python3, then each python3 on PATH (a
# pyenv or venv python3 often has none). Candidates given as arguments replace that list. With none,
# says what to install and exits 1. The Makefile's plot, report and leaderboard targets run through it.
set -uo pipefail
if [ $# -gt 0 ]; then
  candidates=("$@")
else
  candidates=(/usr/bin/python3)
  while IFS= read -r p; do candidates+=("$p"); done < <(type -ap python3)
fi
tried=()
for p in "${candidates[@]}"; do
  [ -x "$p" ] || continue
  if "$p" -c 'import matplotlib' >/dev/null 2>&1; then
    echo "$p"
    exit 0
  fi
  tried+=("$p")
done
echo "plot_python.sh: no python3 with matplotlib (tried: ${tried[*]:-no python3 found}); install Debian's" \
     "python3-matplotlib (experiments/tools/deps.sh plots, as root)" >&2
exit 1
