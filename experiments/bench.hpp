// Timing and data-export commands behind `make bench` (experiments/tools/bench.py drives them).
//   dpforest bench-fit --algorithm NAME --dataset SPEC [--param k=v ...] [--repeats N] [--seed S]
//     loads the dataset once, fits `repeats` times on all rows (fit i uses the stream derived from
//     (seed, i)) after one untimed warm-up fit, on one thread, and prints one JSON line: algorithm,
//     dataset, n_rows, n_features, resolved params, repeats, fit_seconds {min, median, mean},
//     fits_per_second (1 / median), predict_seconds (median, all rows), train_accuracy.
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
  double train_accuracy = -1.0;     // classification: accuracy of the last model on all rows
  std::string to_json() const;
};

// Summary statistics of a non-empty sample.
double median_of(std::vector<double> v);

BenchFitResult bench_fit(const std::string& algorithm, const std::string& dataset,
                         const std::vector<std::string>& params, int repeats, uint64_t seed);

void write_dataset_csv(const Dataset& data, const std::string& path);

int cmd_bench_fit(const std::vector<std::string>& args);
int cmd_export_dataset(const std::vector<std::string>& args);

}  // namespace dpf
