#!/usr/bin/env bash
# The short fuzz pass of CI: builds the libFuzzer targets (clang, build-fuzz) and runs each for
# ${1:-20} seconds. Exit 1 when a target found a crash, sanitizer report, hang or out-of-memory.
set -euo pipefail
cd "$(dirname "$0")/../.."
exec make --no-print-directory fuzz SECONDS="${1:-20}"
