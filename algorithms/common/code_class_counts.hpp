// Per-category class counts of a node's rows, for policies that score multi-way splits on
// categorical (or binned) features at every node of many trees over the same rows.
#pragma once
#include <cstdint>
#include <span>
#include <vector>

#include "core/data/dataset.hpp"

namespace dpf {

// Each categorical feature whose n_categories * n_classes fits in a byte is packed once, one byte
// per row of the dataset (code * C + class); a node's counts are then one byte read per row into
// four interleaved integer histograms (consecutive rows often hit the same cell). The counts are
// integers summed exactly into doubles: bit for bit what per-row `+= 1.0` gives. Features that do
// not fit, and datasets other than the one packed, are counted from the column.
class CodeClassCounts {
 public:
  // Packs the dataset's own labels.
  explicit CodeClassCounts(const Dataset& data);
  // Packs `labels` (the class of every dataset row, in [0, n_classes)) instead; none are packed when it
  // holds fewer than the dataset's rows.
  CodeClassCounts(const Dataset& data, std::span<const int> labels, std::size_t n_classes);

  // The packed bytes of feature f (code * C + class per dataset row), or null when f is not packed.
  const uint8_t* cells(std::size_t f) const { return cells_[f].empty() ? nullptr : cells_[f].data(); }

  // cnt[v * C + c] = rows of `rows` with code v and class c, tot[v] = rows with code v, for every
  // v < n_categories of feature f (resized to fit; earlier contents replaced).
  void count(const Dataset& data, std::size_t f, std::span<const uint32_t> rows, std::vector<double>& cnt,
             std::vector<double>& tot);

 private:
  template <class Label>
  void pack(const Dataset& data, Label label);

  const Dataset* packed_;
  std::size_t n_classes_;
  std::vector<std::vector<uint8_t>> cells_;  // per feature; empty: counted from the column
  std::vector<uint32_t> hist_;
};

}  // namespace dpf
