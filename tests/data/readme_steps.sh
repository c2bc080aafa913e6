#!/bin/bash
# Follows the "Your own data" steps of datasets/README.md literally (ctest own_data_readme): the shell
# blocks between the own-data markers run as written, from the checkout, with `build/` standing for
# the dpforest under test, an empty mirror and cache, and no DPFOREST_ROOT. Then: the run and the
# summary wrote their tables and figure, the check passed, nothing was written to the mirror or the
# download cache, and the schema the README shows is the example's file.
# usage: readme_steps.sh DPFOREST
set -euo pipefail
dpf=$(readlink -f "$1")
root=$(cd "$(dirname "$0")/../.." && pwd)
readme=$root/datasets/README.md
fail() { echo "FAIL: $*" >&2; exit 1; }

steps=$(awk '/<!-- own-data steps: begin -->/{on=1; next} /<!-- own-data steps: end -->/{on=0} on' "$readme" |
        awk '/^```sh/{b=1; next} /^```/{b=0; next} b')
[ -n "$steps" ] || fail "no shell steps between the own-data markers of $readme"
shown=$(awk '/^The schema \(`patients.schema.yaml`\):/{f=1; next} f && /^```yaml/{b=1; next} b && /^```/{exit} b' "$readme")
diff <(printf '%s\n' "$shown") "$root/docs/examples/own-data/patients.schema.yaml" ||
  fail "the schema datasets/README.md shows differs from docs/examples/own-data/patients.schema.yaml"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/mirror" "$tmp/cache" "$tmp/bin"
ln -s "$dpf" "$tmp/bin/dpforest"
export DPFOREST_MIRROR=$tmp/mirror DPFOREST_CACHE=$tmp/cache DPFOREST_OFFLINE=1 TMPDIR=$tmp
unset DPFOREST_ROOT
script=$(printf '%s\n' "$steps" | sed "s|\\\$PWD/build|$tmp/bin|")
out=$(cd "$root" && bash -euo pipefail -c "$script
echo \"STUDY=\$study\"") || fail "a step failed; output:
$out"
printf '%s\n' "$out"
study=$(printf '%s\n' "$out" | sed -n 's/^STUDY=//p')
[ -d "$study" ] || fail "the steps did not leave \$study"
exp=$study/results/mystudy/patients
for f in results.csv experiment.yaml summary.tsv summary.png summary.pdf; do
  [ -s "$exp/$f" ] || fail "missing $exp/$f"
done
grep -q "every row fits the schema" <<< "$out" || fail "dataset check did not pass"
grep -q "9 cells: 9 computed" <<< "$out" || fail "the run did not compute its 9 cells"
grep -q "accuracy (mean ± sd over 5-fold CV × 2 repetitions)" <<< "$out" || fail "summarize: no protocol label"
[ -z "$(ls -A "$tmp/mirror")" ] || fail "something was written to the mirror"
[ -z "$(ls -A "$tmp/cache")" ] || fail "something was written to the download cache"
echo "README own-data steps: OK"
