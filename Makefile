# dpforest: the Makefile front of the CMake build. Every target does its own set-up (deps, build).
#   make                                   build
#   make test                              unit + statistical + small reproduction tests, the Python binding's pytest suite (ctest)
#   make reproduce-figure-N PAPER=<id>     run configs/<id>/figure-N.yaml and draw the figure
#   make reproduce-table-N PAPER=<id>      run configs/<id>/table-N.yaml and render the table
#   make reproduce PAPER=<id>              every figure and table of one paper
#   make reproduce-benchmark               the leaderboard: every private forest, one protocol (configs/benchmark)
#   make leaderboard-readme                README.md's leaderboard block from the committed published copy (no run)
#   make check-published [PAPER=<id>]      published numbers vs our results
#   make snapshot [PAPER=<id>]             the reference snapshot of full results (results/reference/<id>, tracked in git)
#   make verify PAPER=<id> [EXPERIMENT=e]  rerun (or reuse complete results) and compare cell by cell with the snapshot
#   make report [PAPER=<id>]               results/<id>/report.html + report.md: every table and figure, paper vs ours (fresh results, else the snapshot)
#   make test-sanitize                     the whole ctest suite (and the corpus) under ASan + UBSan (build-asan)
#   make audit                             statistical privacy audit of every private algorithm (results/audit)
#   make bench                             timings vs scikit-learn and ranger, scale rows 1e5-1e7 (results/bench/bench.csv)
#   make datasets                          fetch and verify every dataset
#   make list                              papers' experiments, algorithms, datasets
#   make docs                              regenerate docs/algorithms.md from the registry
#   make calibrate [PAPER_RESULTS=dir]     refit the cost model (experiments/cost/cost_table.inc) on measured task CPU times
#   make fuzz [SECONDS=60]                 libFuzzer targets (clang, build-fuzz), SECONDS each
#   make submit PAPER=<id> [TASKS=n]       every figure and table of one paper as one SLURM array job + finishing job
#   make test-cluster                      a single-node SLURM cluster on localhost, a sweep submitted, cancelled, resubmitted
PAPER   ?= dipreme
THREADS ?= $(shell nproc 2>/dev/null || echo 2)
JOBS    ?= $(shell nproc 2>/dev/null || echo 2)
BUILD   ?= build
RESULTS ?= results
PY      := /usr/bin/python3
# The plot, report and leaderboard targets run under a python3 that has matplotlib: /usr/bin/python3, else
# the first python3 on PATH with it (experiments/tools/plot_python.sh, which names the package to install
# when there is none). Evaluated once, by the targets that use it. Everything runs as `python3 -m ...`
# from this folder (docs/plots.md).
PLOT_PY = $(eval PLOT_PY := $$(or $$(shell experiments/tools/plot_python.sh),$$(error no python3 with matplotlib: see the line above)))$(PLOT_PY)
DPF     := $(BUILD)/dpforest
CMAKE_FLAGS ?= -DCMAKE_BUILD_TYPE=Release $(if $(CI),-DDPF_WERROR=ON,)
FUZZ_BUILD ?= build-fuzz
SECONDS ?= 60

.PHONY: all build tool deps docs plot-deps calibrate test test-sanitize test-cluster submit reproduce reproduce-benchmark leaderboard-readme check-published snapshot verify report audit bench datasets list fuzz clean
.SECONDARY:

all: build

deps:
	@experiments/tools/deps.sh build plots python

# The plots' Debian packages alone (a prerequisite, so that PLOT_PY is looked up after they are installed).
plot-deps:
	@experiments/tools/deps.sh plots

build: deps
	@cmake -S . -B $(BUILD) $(CMAKE_FLAGS) >/dev/null
	@cmake --build $(BUILD) -j$(JOBS) --  --no-print-directory -s

# Only the dpforest executable: what the reproduce, check, bench and data targets need (the test
# binaries are built by `make test` / `make build`).
tool: deps
	@cmake -S . -B $(BUILD) $(CMAKE_FLAGS) >/dev/null
	@cmake --build $(BUILD) -j$(JOBS) --target dpforest --  --no-print-directory -s

test: build
	@experiments/tools/deps.sh browser
	cd $(BUILD) && ctest --output-on-failure --timeout 1500

# ASan + UBSan (CMake option DPF_SANITIZE) over every ctest suite, the malformed-input corpus included.
# halt_on_error makes every UBSan report fatal, so a report fails its test; LeakSanitizer is on.
SAN_BUILD ?= build-asan
SAN_ENV := ASAN_OPTIONS=halt_on_error=1:abort_on_error=1:detect_leaks=1:strict_string_checks=1 \
           UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
test-sanitize: deps
	@cmake -S . -B $(SAN_BUILD) -DCMAKE_BUILD_TYPE=Release -DDPF_SANITIZE=ON $(if $(CI),-DDPF_WERROR=ON,) >/dev/null
	@cmake --build $(SAN_BUILD) -j$(JOBS) --  --no-print-directory -s
	cd $(SAN_BUILD) && $(SAN_ENV) ctest --output-on-failure --timeout 3000

# A whole paper on a SLURM cluster: one array job over every figure and table config, then a finishing
# job (merge, check-published, plots). SLURM_ARGS passes more options, e.g. SLURM_ARGS="--partition=short --time=4:00:00".
TASKS ?= 8
SLURM_ARGS ?=
submit: tool
	$(DPF) slurm $$(ls configs/$(PAPER)/figure-*.yaml configs/$(PAPER)/table-*.yaml 2>/dev/null) --tasks $(TASKS) --results $(abspath $(RESULTS)) $(SLURM_ARGS)

# The cluster test (tests/cluster/run.sh): installs slurm-wlm and munge when missing, starts munged,
# slurmctld and slurmd on localhost from tests/cluster/*.in, submits a real config through `dpforest
# slurm`, cancels an array task mid-run and resubmits it, and compares with an unsharded run.
test-cluster: tool
	@experiments/tools/deps.sh cluster
	tests/cluster/run.sh $(DPF)

reproduce-figure-%: tool
	$(DPF) run configs/$(PAPER)/figure-$*.yaml --threads $(THREADS) --results $(RESULTS)
	$(PLOT_PY) -m plots $(PAPER) figure-$* $(RESULTS)/$(PAPER)/figure-$*

reproduce-table-%: tool
	$(DPF) run configs/$(PAPER)/table-$*.yaml --threads $(THREADS) --results $(RESULTS)
	$(PLOT_PY) -m plots $(PAPER) table-$* $(RESULTS)/$(PAPER)/table-$*

# Every figure and table of PAPER. An experiment whose every cell is skipped for data the mirror does
# not hold (`dpforest run` exit 4, its notes say which file) is listed at the end and does not stop the
# others; any other failure does.
reproduce: tool
	@skipped=; for c in configs/$(PAPER)/figure-*.yaml configs/$(PAPER)/table-*.yaml; do \
	  [ -f "$$c" ] || continue; n=$$(basename $$c .yaml); \
	  $(DPF) run $$c --threads $(THREADS) --results $(RESULTS); rc=$$?; \
	  if [ $$rc -eq 4 ]; then skipped="$$skipped $$n"; continue; fi; \
	  [ $$rc -eq 0 ] || exit $$rc; \
	  $(PLOT_PY) -m plots $(PAPER) $$n $(RESULTS)/$(PAPER)/$$n || exit $$?; done; \
	  [ -z "$$skipped" ] || echo "make reproduce PAPER=$(PAPER): not run, their data are not in the mirror:$$skipped"

# The leaderboard (configs/benchmark, docs/leaderboard.md): nine configs on shared folds, then the ranks, Friedman /
# Nemenyi critical-difference diagrams, accuracy-vs-epsilon panels, wins/ties/losses against the best
# non-private forest and fit times (results/benchmark/leaderboard/). Resumable: finished cells are kept.
# PUBLISH=1 also copies the light outputs to $(REFERENCE)/benchmark/leaderboard/ (tracked) and rewrites
# README.md's leaderboard block from them (python3 -m plots.benchmark.test_leaderboard checks the two agree).
# The paper-settings track (classification, binary, regression), the tuning tracks (*-tuned: private
# selection and oracle) and the large tier (large, large-binary, large-regression; 1 x 5-fold), all on the
# seed's folds.
BENCHMARK_CONFIGS := classification binary regression classification-tuned binary-tuned regression-tuned large large-binary large-regression
reproduce-benchmark: tool
	@set -e; for c in $(BENCHMARK_CONFIGS); do \
	  $(DPF) run configs/benchmark/$$c.yaml --threads $(THREADS) --results $(RESULTS); done
	$(PLOT_PY) -m plots.benchmark.leaderboard $(if $(PUBLISH),--publish $(REFERENCE)/benchmark/leaderboard --readme README.md) \
	  $(foreach c,$(BENCHMARK_CONFIGS),$(RESULTS)/benchmark/$(c))

# On a fresh clone: the README's leaderboard block (headline, best forests, finding and caveats) from the
# committed copy results/reference/benchmark/leaderboard alone, without rerunning anything.
leaderboard-readme: plot-deps
	$(PLOT_PY) -m plots.benchmark.publish --from results/reference/benchmark/leaderboard --readme README.md

check-published: tool
	@set -e; for f in $(if $(filter command line,$(origin PAPER)),configs/$(PAPER)/published.yaml,configs/*/published.yaml); do \
	  p=$$(basename $$(dirname $$f)); \
	  $(DPF) check-published $$f --results $(RESULTS) --out $(RESULTS)/$$p/published-check.md; done

# The reference snapshot (README "Reference snapshot and verify"; plots/reference/): per experiment with
# complete results one summary row per cell (means, sds, the primary metric per fold), meta.yaml and
# published.json, in results/reference/<paper>/. Without PAPER: every paper with a results folder.
# ALLOW_PARTIAL=1 also writes incomplete experiments, marked complete: false.
REFERENCE ?= $(RESULTS)/reference
snapshot: tool
	@set -e; papers="$(if $(filter command line,$(origin PAPER)),$(PAPER),$$(for d in $(RESULTS)/*/; do p=$$(basename $$d); [ "$$p" != reference ] && [ -d configs/$$p ] && echo $$p; done))"; \
	  [ -n "$$papers" ] || { echo "make snapshot: no results of any paper in $(RESULTS)/" >&2; exit 1; }; \
	  rc=0; for p in $$papers; do \
	    $(PY) -m plots.reference.snapshot --paper $$p --results $(RESULTS) --out $(REFERENCE) --dpforest $(DPF) \
	      $(foreach e,$(EXPERIMENT),--experiment $(e)) $(if $(ALLOW_PARTIAL),--allow-partial) || rc=1; done; exit $$rc

# Reruns (or reuses complete results) and compares every cell with the snapshot: paired t-test per cell
# on the primary metric's per-fold values, Holm over the experiment's cells; exit 1 on a flag or a
# missing cell. EXPERIMENT=figure-2 (or several, space separated) limits it; RERUN=1 ignores existing
# results and runs into a temporary results root.
verify: tool
	$(PY) -m plots.reference.verify --paper $(PAPER) --results $(RESULTS) --reference $(REFERENCE) --dpforest $(DPF) \
	  --threads $(THREADS) $(foreach e,$(EXPERIMENT),--experiment $(e)) $(if $(RERUN),--rerun)
# The fidelity report: results/<paper>/report.html (self-contained) and report.md for every paper
# with a published.yaml, or PAPER's alone; rewrites README.md's fidelity block from the committed snapshot.
# Builds nothing: it uses build/dpforest when present (completeness of fresh results, check-published
# --json), else works from the snapshot (results/reference/) alone.
report: plot-deps
	$(PLOT_PY) -m plots.report.report $(if $(filter command line,$(origin PAPER)),--paper $(PAPER),) --results $(RESULTS) --dpforest $(DPF)

# The privacy audit matrix (configs/audit/matrix.yaml): results/audit/audit.{csv,md}; exit 6 on an alarm.
audit: tool
	$(DPF) audit --matrix configs/audit/matrix.yaml --threads $(THREADS) --out $(RESULTS)/audit

bench: tool
	@experiments/tools/deps.sh bench
	$(PY) -m experiments.tools.bench --dpforest $(DPF) --out $(RESULTS)/bench/bench.csv

datasets: tool
	$(DPF) datasets fetch

# The cost model behind the shard plan, `run --dry-run`, `list experiments` and the run's ETA
# (experiments/cost/cost_model.hpp): runs the calibration sweeps (experiments/cost/calibration/*.yaml, every
# registry algorithm at two sizes; about 3 CPU-minutes), then fits per-algorithm factors and exponents
# on the tasks' measured cpu_seconds and rewrites experiments/cost/cost_table.inc, which names the runs.
# PAPER_RESULTS="<results root> ..." adds the papers' own runs: every configs/<paper>/<experiment>.yaml
# whose <root>/<paper>/<experiment>/results.csv exists, from the first root that has it (their cells
# tables go to $(RESULTS)/calibration/papers; nothing is run or written under the roots). Finished cells are reused: delete $(RESULTS)/calibration to
# measure again. Rebuild afterwards.
CALIBRATION := cost-classification cost-multiclass cost-regression
PAPER_RESULTS ?=
calibrate: tool
	@for c in $(CALIBRATION); do \
	  $(DPF) run experiments/cost/calibration/$$c.yaml --threads $(THREADS) --results $(RESULTS) --quiet || exit $$?; \
	  $(DPF) run experiments/cost/calibration/$$c.yaml --results $(RESULTS) --dry-run \
	    --cells-tsv $(RESULTS)/calibration/$$c.cells.tsv >/dev/null || exit $$?; \
	done
	$(PY) -m experiments.tools.calibrate_cost --out experiments/cost/cost_table.inc \
	  $(if $(PAPER_RESULTS),$(foreach d,$(PAPER_RESULTS),--paper-results $(d)) --dpforest $(DPF) --cells-dir $(RESULTS)/calibration/papers) \
	  $(foreach c,$(CALIBRATION),$(RESULTS)/calibration/$(c).cells.tsv $(RESULTS)/calibration/$(c)/results.csv)
	@cmake --build $(BUILD) -j$(JOBS) --target dpforest --  --no-print-directory -s

list: tool
	$(DPF) list

# Fuzzing (tests/fuzz): the config, table (CSV/ARFF/LIBSVM/whitespace, gzip) and published.yaml
# readers under ASan + UBSan, SECONDS per target, seeded from tests/corpus, configs/ and
# tests/fuzz/seeds; exit 1 on a finding (artifacts in $(FUZZ_BUILD)/fuzz/artifacts/<target>/).
fuzz:
	@experiments/tools/deps.sh build fuzz
	@CC=clang CXX=clang++ cmake -S . -B $(FUZZ_BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DDPF_FUZZ=ON $(if $(shell command -v ccache),-DCMAKE_CXX_COMPILER_LAUNCHER=ccache,) >/dev/null
	@cmake --build $(FUZZ_BUILD) -j$(JOBS) --target fuzz_config fuzz_table fuzz_published -- --no-print-directory -s
	tests/fuzz/run_fuzz.sh $(FUZZ_BUILD) $(SECONDS)

clean:
	rm -rf $(BUILD)

# docs/algorithms.md from the registry (ctest `docs` fails when it is stale).
docs: tool
	$(PY) -m experiments.tools.algorithms_doc --dpforest $(DPF) --out docs/algorithms.md
