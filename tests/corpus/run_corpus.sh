#!/usr/bin/env bash
# Malformed-input corpus (README "Robustness"): every line of cases.tsv runs dpforest on one bad input
# and asserts (1) the exact exit code, (2) a substring of stderr+stdout naming the file, key or line,
# (3) that nothing outside the results root changed: the temp dir around it and the corpus itself are
# snapshotted before and after, and no absolute escape target appeared.
# usage: run_corpus.sh PATH/TO/dpforest [ID-SUBSTRING]
set -u
BIN=$(realpath "$1")
FILTER=${2:-}
C=$(cd "$(dirname "$0")" && pwd)
pass=0; failures=0
snapshot() {  # everything under $1 except the results root, with content hashes; plus the corpus
  (cd "$1" && find . -path ./a/b/results -prune -o -print | LC_ALL=C sort &&
   find . -path ./a/b/results -prune -o -type f -print0 | LC_ALL=C sort -z | xargs -0 -r sha256sum)
  (cd "$C" && find . -type f -print0 | LC_ALL=C sort -z | xargs -0 sha256sum)
}
while IFS=$'\t' read -r id setup want_rc want_msg args; do
  [[ -z "$id" || "$id" == \#* ]] && continue
  [[ -n "$FILTER" && "$id" != *"$FILTER"* ]] && continue
  T=$(mktemp -d)
  R=$T/a/b/results
  mkdir -p "$R"
  env_args=()
  case "$setup" in
    -) ;;
    run) "$BIN" run "$C/tiny.yaml" --results "$R" --quiet --threads 1 >/dev/null ;;
    big) { cat "$C/tiny.yaml"; printf 'title: "'; head -c 2000000 /dev/zero | tr '\0' 'x'; printf '"\n'; } > "$T/big.yaml" ;;
    cell\ *)
      name=${setup#cell }
      "$BIN" run "$C/tiny.yaml" --results "$R" --quiet --threads 1 >/dev/null
      cell=$(ls "$R"/corpus/tiny/cells/*.csv)
      if [[ "$name" == "-" ]]; then rm -f "$cell" "${cell%.csv}.ok"
      else
        cp "$C/cells/$name.csv" "$cell"
        if [[ -f "$C/cells/$name.ok" ]]; then cp "$C/cells/$name.ok" "${cell%.csv}.ok"; else rm -f "${cell%.csv}.ok"; fi
      fi ;;
    registry\ *)
      mkdir -p "$T/root/datasets"; cp "$C/registry/${setup#registry }"/*.yaml "$T/root/datasets/"
      env_args=(DPFOREST_ROOT="$T/root") ;;
    dataset\ *)
      name=${setup#dataset }
      mkdir -p "$T/root/datasets" "$T/mirror/tiny"
      cp "$C/data/$name/tiny.yaml" "$T/root/datasets/"; cp "$C/data/$name/tiny.csv" "$T/mirror/tiny/"
      env_args=(DPFOREST_ROOT="$T/root" DPFOREST_MIRROR="$T/mirror" DPFOREST_CACHE="$T/cache" DPFOREST_OFFLINE=1) ;;
    *) echo "corpus: $id: unknown setup '$setup'"; exit 2 ;;
  esac
  before=$(snapshot "$T")
  a=${args//\{C\}/$C}; a=${a//\{R\}/$R}; a=${a//\{T\}/$T}
  read -r -a argv <<< "$a"
  out=$(cd "$T" && env "${env_args[@]}" "$BIN" "${argv[@]}" 2>&1); rc=$?
  after=$(snapshot "$T")
  problems=()
  [[ "$rc" == "$want_rc" ]] || problems+=("exit code $rc, expected $want_rc")
  [[ "$rc" != 0 ]] || problems+=("exit code 0 on a malformed input")
  [[ "$out" == *"$want_msg"* ]] || problems+=("message lacks: $want_msg")
  [[ "$before" == "$after" ]] || problems+=("files outside the results root changed: $(diff <(echo "$before") <(echo "$after") | head -5)")
  [[ ! -e /tmp/dpforest-corpus-escape ]] || problems+=("created /tmp/dpforest-corpus-escape")
  (( ${#out} < 4000 )) || problems+=("message is ${#out} bytes (values are not clipped)")
  if (( ${#problems[@]} )); then
    ((failures++))
    printf 'FAIL %s\n' "$id"; printf '   - %s\n' "${problems[@]}"; printf '   output: %s\n' "${out:0:600}"
  else
    ((pass++))
  fi
  rm -rf "$T"
done < "$C/cases.tsv"
echo "corpus: $pass passed, $failures failed"
(( failures == 0 ))
