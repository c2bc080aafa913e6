// Timing and data-export commands behind `make bench` (experiments/tools/bench.py drives them).
//   dpforest bench-fit --algorithm NAME --dataset SPEC [--param k=v ...] [--repeats N] [--seed S]
//                      [--test-fraction F] [--no-warmup]
//     loads the dataset once, fits `repeats` times (fit i uses the stream derived from (seed, i))
//     after one untimed warm-up fit (unless --no-warmup), on one thread, and prints one JSON line:
//     algorithm, dataset, n_rows, n_features, resolved params, repeats, fit_seconds {min, median,
//     mean}, fits_per_second (1 / median), predict_seconds (median), fit_cpu_seconds and
//     predict_cpu_seconds (medians of the process's CPU time: on a shared machine the wall times
//     grow with the load, the CPU times much less), train_accuracy, and memory:
//     dataset_bytes (n x (d + 1) doubles), rss_after_load_bytes and peak_rss_bytes (the process's
//     high-water mark, VmHWM). With --test-fraction F the fits use the first n - round(F n) rows
//     and test_accuracy is measured on the last round(F n) rows (a synthetic spec's rows are i.i.d.,
//     so this is a random holdout; peers get the same two parts of the exported CSV).
//   dpforest export-dataset SPEC OUT.csv
//     writes the loaded dataset as CSV (header; target last; values with 17 significant digits so
//     they read back to the same doubles; class names for the target, category codes for
//     categorical features), so that peers (scikit-learn) train on exactly our rows.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "core/data/dataset.hpp"

namespace dpf {

struct BenchFitResult {
  std::string algorithm, dataset;
  std::size_t n_rows = 0, n_features = 0;
  std::vector<std::pair<std::string, std::string>> params;  // resolved, by name
  int repeats = 0;
  uint64_t seed = 0;
  std::vector<double> fit_seconds;  // one per timed fit
  double predict_seconds = 0.0;     // median over the timed fits' models
  double fit_cpu_seconds = 0.0, predict_cpu_seconds = 0.0;  // medians of the process's CPU time
  double train_accuracy = -1.0;     // classification: accuracy of the last model on its training rows
  double test_accuracy = -1.0;      // classification with test_fraction > 0: on the held-out rows
  std::size_t n_train = 0, n_test = 0;
  std::size_t dataset_bytes = 0, rss_after_load_bytes = 0, peak_rss_bytes = 0;
  std::string to_json() const;
};

// Summary statistics of a non-empty sample.
double median_of(std::vector<double> v);

struct BenchFitOptions {
  int repeats = 5;
  uint64_t seed = 1;
  double test_fraction = 0.0;  // 0: fit and score on all rows
  bool warmup = true;
};
BenchFitResult bench_fit(const std::string& algorithm, const std::string& dataset,
                         const std::vector<std::string>& params, const BenchFitOptions& options);

void write_dataset_csv(const Dataset& data, const std::string& path);

int cmd_bench_fit(const std::vector<std::string>& args);
int cmd_export_dataset(const std::vector<std::string>& args);

}  // namespace dpf
