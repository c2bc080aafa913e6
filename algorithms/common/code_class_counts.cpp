#include "algorithms/common/code_class_counts.hpp"

#include <cmath>

#include "core/tree/split_search.hpp"

namespace dpf {

CodeClassCounts::CodeClassCounts(const Dataset& data) : packed_(&data), n_classes_(data.n_classes()) {
  pack(data, [&](std::size_t r) { return data.label(r); });
}

CodeClassCounts::CodeClassCounts(const Dataset& data, std::span<const int> labels, std::size_t n_classes)
    : packed_(&data), n_classes_(n_classes) {
  if (labels.size() < data.n_rows()) {
    cells_.assign(data.schema().features.size(), {});
    return;
  }
  pack(data, [&](std::size_t r) { return labels[r]; });
}

template <class Label>
void CodeClassCounts::pack(const Dataset& data, Label label) {
  const std::size_t n = data.n_rows(), C = n_classes_;
  const auto& features = data.schema().features;
  cells_.assign(features.size(), {});
  if (C == 0) return;
  for (std::size_t f = 0; f < features.size(); ++f) {
    const Feature& feat = features[f];
    if (feat.kind != FeatureKind::kCategorical || feat.n_categories() * C > 256) continue;
    std::span<const double> col = data.column(f);
    auto& cell = cells_[f];
    cell.resize(n);
    bool ok = true;
    for (std::size_t r = 0; r < n && ok; ++r) {
      const double v = col[r];
      const int c = label(r);
      ok = v >= 0 && v < static_cast<double>(feat.n_categories()) && v == std::floor(v) && c >= 0 &&
           static_cast<std::size_t>(c) < C;
      if (ok) cell[r] = static_cast<uint8_t>(static_cast<std::size_t>(v) * C + static_cast<std::size_t>(c));
    }
    if (!ok) cell.clear();  // a code or class outside the schema: the column path
  }
}

void CodeClassCounts::count(const Dataset& data, std::size_t f, std::span<const uint32_t> rows,
                            std::vector<double>& cnt, std::vector<double>& tot) {
  const std::size_t C = n_classes_, nv = data.schema().features[f].n_categories(), cells = nv * C;
  cnt.assign(cells, 0.0);
  tot.assign(nv, 0.0);
  if (&data != packed_ || cells_[f].empty()) {
    std::span<const double> col = data.column(f);
    for (uint32_t r : rows) {
      const auto v = static_cast<std::size_t>(col[r]);
      cnt[v * C + static_cast<std::size_t>(data.label(r))] += 1.0;
      tot[v] += 1.0;
    }
    return;
  }
  hist_.assign(4 * cells, 0);
  const uint32_t* h = hist_.data();
  count_byte_cells(cells_[f].data(), rows, cells, hist_.data());
  for (std::size_t v = 0; v < nv; ++v) {
    uint32_t row_total = 0;
    for (std::size_t c = 0; c < C; ++c) {
      const std::size_t j = v * C + c;
      const uint32_t k = h[j] + h[cells + j] + h[2 * cells + j] + h[3 * cells + j];
      cnt[j] = static_cast<double>(k);
      row_total += k;
    }
    tot[v] = static_cast<double>(row_total);
  }
}

}  // namespace dpf
