#!/usr/bin/env bash
# Runs every libFuzzer target of tests/fuzz for a given time each, seeded from the checked-in inputs.
# Usage (from the repository root, after the targets are built; `make fuzz` does both):
#   tests/fuzz/run_fuzz.sh BUILD_DIR SECONDS_PER_TARGET [target...]     (targets: config table published)
# The scratch corpora are BUILD_DIR/fuzz/corpus/<target> (seeds are copied there, so the checked-in
# files are never modified); findings are written to BUILD_DIR/fuzz/artifacts/<target>/ and make
# the script exit 1. A finding goes to tests/fuzz/regressions/<target>/ once fixed (ctest experiments
# replays that folder in the ordinary build).
set -euo pipefail
build=${1:?usage: run_fuzz.sh BUILD_DIR SECONDS [target...]}
secs=${2:?usage: run_fuzz.sh BUILD_DIR SECONDS [target...]}
shift 2
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=(config table published)
work="$build/fuzz"
root=$(pwd)

# Seeds of the table target: the format bytes of tests/fuzz/fuzz_paths.hpp (table_format) before the
# file's bytes; each snippet also gzipped.
table_seed() {  # out-name byte0 byte1 file
  local out="$work/corpus/table/$1"
  { printf "\\x$2\\x$3"; cat "$4"; } >"$out"
  { printf "\\x$2\\x$3"; gzip -c -n "$4"; } >"$out.gz"
}

seed() {
  local t=$1 dir="$work/corpus/$1"
  mkdir -p "$dir"
  case $t in
    config)
      for f in tests/corpus/configs/*.yaml tests/corpus/tiny.yaml tests/corpus/data/run-tiny.yaml configs/*/*.yaml; do
        case $f in */published.yaml|configs/audit/matrix.yaml) continue ;; esac
        cp "$f" "$dir/seed-$(echo "$f" | tr / _)"
      done ;;
    published)
      for f in tests/corpus/published/*.yaml configs/*/published.yaml; do
        cp "$f" "$dir/seed-$(echo "$f" | tr / _)"
      done ;;
    table)
      for f in tests/fuzz/seeds/table/*; do
        n=$(basename "$f")
        case $n in
          csv-*) table_seed "$n-h" 04 00 "$f"; table_seed "$n-semi" 00 01 "$f"; table_seed "$n-skip" 2c 01 "$f" ;;
          arff-*) table_seed "$n" 01 00 "$f" ;;
          libsvm-*) table_seed "$n" 02 00 "$f"; table_seed "$n-d123" 02 c0 "$f" ;;
          whitespace-*) table_seed "$n-h" 07 00 "$f"; table_seed "$n-max3" 0b 18 "$f" ;;
        esac
      done
      for f in tests/corpus/cells/*.csv tests/corpus/data/*/tiny.csv; do
        table_seed "seed-$(echo "$f" | tr / _)" 04 00 "$f"
      done ;;
  esac
  # Fixed findings stay in the corpus, so a regression is found again at once.
  if compgen -G "tests/fuzz/regressions/$t/*" >/dev/null; then cp tests/fuzz/regressions/$t/* "$dir/"; fi
}

status=0
for t in "${targets[@]}"; do
  bin="$build/fuzz_$t"
  [ -x "$bin" ] || { echo "run_fuzz: $bin is not built (make fuzz builds it)" >&2; exit 2; }
  seed "$t"
  mkdir -p "$work/artifacts/$t"
  echo "== fuzz_$t: ${secs}s, corpus $work/corpus/$t ($(ls "$work/corpus/$t" | wc -l) inputs)"
  start=$(date +%s)
  # -timeout: one input taking > 10 s is a hang; -rss_limit_mb: a reader needing > 2 GiB is a finding.
  if ! "$bin" -max_total_time="$secs" -max_len=65536 -rss_limit_mb=2048 -timeout=10 -print_final_stats=1 \
       -artifact_prefix="$work/artifacts/$t/" "$work/corpus/$t" >"$work/$t.log" 2>&1; then
    status=1
    echo "!! fuzz_$t found a problem: see $work/$t.log and $work/artifacts/$t/" >&2
    grep -E "ERROR|SUMMARY|runtime error|non-dpf" "$work/$t.log" | head -5 >&2 || true
  fi
  grep -E "^stat::number_of_executed_units|^stat::peak_rss_mb" "$work/$t.log" | tr '\n' ' '
  echo "($(( $(date +%s) - start ))s)"
done
cd "$root"
exit $status
