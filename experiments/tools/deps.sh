#!/usr/bin/env bash
# Installs the Debian packages dpforest needs when they are missing (as root), or prints the exact
# command to run. Usage: deps.sh [build|plots|python|browser|bench|fuzz|cluster]... (default: build plots python)
set -euo pipefail
groups=("$@")
[ ${#groups[@]} -eq 0 ] && groups=(build plots python)
pkgs=()
for g in "${groups[@]}"; do
  case "$g" in
    build) pkgs+=(cmake g++ make pkg-config zlib1g-dev libboost-program-options-dev libboost-math-dev libeigen3-dev
                  libyaml-cpp-dev doctest-dev librandom123-dev liblbfgspp-dev) ;;
    plots) pkgs+=(python3 python3-matplotlib python3-scipy python3-yaml) ;;
    # The Python binding (python/) and its pytest suite, run by `make test`; pip installing it into a
    # venv (--system-site-packages, --no-build-isolation) and building a wheel (ctest python_install).
    python) pkgs+=(python3 python3-dev pybind11-dev python3-numpy python3-sklearn python3-pytest python3-venv python3-pip
                   python3-setuptools python3-wheel python3-build) ;;
    # Headless Chromium for the fidelity report's browser test (ctest report_browser), run by `make test`.
    browser) pkgs+=(chromium) ;;
    bench) pkgs+=(python3 python3-sklearn python3-numpy r-cran-ranger) ;;
    fuzz) pkgs+=(clang libclang-rt-14-dev libomp-dev gzip) ;;  # libFuzzer + sanitizer runtimes, OpenMP for clang
    cluster) pkgs+=(slurm-wlm munge) ;;  # make test-cluster: a single-node SLURM cluster on localhost
    *) echo "deps.sh: unknown group '$g' (build, plots, python, browser, bench, fuzz, cluster)" >&2; exit 2 ;;
  esac
done
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
cmd="apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends ${missing[*]}"
if [ "$(id -u)" -eq 0 ]; then
  echo "deps: installing ${missing[*]}" >&2
  # apt-get update only when an install from the current lists fails (saves time on a warm machine).
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null 2>&1 || {
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
  }
else
  echo "deps: missing Debian packages: ${missing[*]}" >&2
  echo "deps: run as root:  sudo sh -c '$cmd'" >&2
  exit 1
fi
