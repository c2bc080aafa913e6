#include "core/data/preprocess.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "core/util/error.hpp"

namespace dpf {

namespace {

void require_regression(const Dataset& data, const char* what) {
  require(data.task() == TaskKind::kRegression, what, ": dataset ", data.name(), " is not a regression task");
}

}  // namespace

void TargetScaler::apply(Dataset& data) const {
  require_regression(data, "TargetScaler::apply");
  const double span = hi - lo;
  for (double& y : data.mutable_y()) y = span > 0 ? (y - lo) / span : 0.0;
  data.mutable_schema().target.lo = 0.0;
  data.mutable_schema().target.hi = 1.0;
}

TargetScaler fit_target_minmax(const Dataset& data, std::span<const uint32_t> rows) {
  require_regression(data, "fit_target_minmax");
  require(!rows.empty(), "fit_target_minmax: no rows");
  TargetScaler s{std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity()};
  for (uint32_t r : rows) {
    s.lo = std::min(s.lo, data.y()[r]);
    s.hi = std::max(s.hi, data.y()[r]);
  }
  return s;
}

TargetScaler fit_target_max(const Dataset& data, std::span<const uint32_t> rows) {
  require_regression(data, "fit_target_max");
  require(!rows.empty(), "fit_target_max: no rows");
  TargetScaler s{0.0, -std::numeric_limits<double>::infinity()};
  for (uint32_t r : rows) s.hi = std::max(s.hi, data.y()[r]);
  return s;
}

Dataset bin_equal_width(const Dataset& data, int k) {
  require(k >= 1, "bin_equal_width: k must be at least 1, got ", k);
  Schema schema = data.schema();
  std::vector<std::string> labels;
  for (int i = 0; i < k; ++i) labels.push_back(std::to_string(i));
  for (Feature& f : schema.features)
    if (f.kind == FeatureKind::kNumeric) {
      require(f.lo <= f.hi, "bin_equal_width: feature '", f.name, "' has an empty domain");
      f.kind = FeatureKind::kCategorical;
      f.categories = labels;
    }
  Dataset out(data.name(), schema);
  out.reserve(data.n_rows());
  std::vector<double> x(data.n_features());
  for (std::size_t r = 0; r < data.n_rows(); ++r) {
    for (std::size_t f = 0; f < data.n_features(); ++f) {
      const Feature& feat = data.schema().features[f];
      double v = data.x(r, f);
      if (feat.kind == FeatureKind::kNumeric && std::isnan(v)) {
        x[f] = v;  // a missing value stays missing (imputed per training fold)
      } else if (feat.kind == FeatureKind::kNumeric) {
        const double w = (feat.hi - feat.lo) / k;
        double b = w > 0 ? std::floor((v - feat.lo) / w) : 0.0;
        x[f] = std::clamp(b, 0.0, static_cast<double>(k - 1));  // the last bin is closed; outside clamps
      } else {
        x[f] = v;
      }
    }
    out.add_row(x, data.y()[r]);
  }
  return out;
}

void domains_from_data(Dataset& data, std::span<const uint32_t> rows) {
  require(!rows.empty(), "domains_from_data: no rows");
  Schema& s = data.mutable_schema();
  for (std::size_t f = 0; f < data.n_features(); ++f) {
    Feature& feat = s.features[f];
    if (feat.kind != FeatureKind::kNumeric) continue;
    auto col = data.column(f);
    double lo = std::numeric_limits<double>::infinity(), hi = -lo;
    for (uint32_t r : rows) {
      if (std::isnan(col[r])) continue;
      lo = std::min(lo, col[r]);
      hi = std::max(hi, col[r]);
    }
    feat.lo = lo;
    feat.hi = hi;
  }
  s.domains_source = "from-data";
}

MedianImputer fit_median_imputer(const Dataset& data, std::span<const uint32_t> rows) {
  MedianImputer imp;
  imp.value.resize(data.n_features());
  std::vector<double> seen;
  for (std::size_t f = 0; f < data.n_features(); ++f) {
    const Feature& feat = data.schema().features[f];
    const bool categorical = feat.kind == FeatureKind::kCategorical;
    auto col = data.column(f);
    seen.clear();
    for (uint32_t r : rows) {
      require(r < data.n_rows(), "fit_median_imputer: row ", r, " outside dataset ", data.name(), " (",
              data.n_rows(), " rows)");
      if (!std::isnan(col[r])) seen.push_back(col[r]);
    }
    if (seen.empty()) {
      // No training value: the public domain's midpoint (categorical: the bin holding it).
      imp.value[f] = categorical ? std::floor(static_cast<double>(feat.n_categories()) / 2.0) : 0.5 * (feat.lo + feat.hi);
      imp.fallback.push_back(feat.name);
      continue;
    }
    std::sort(seen.begin(), seen.end());
    const std::size_t n = seen.size();
    if (categorical || n % 2 == 1) imp.value[f] = seen[(n - 1) / 2];  // lower median for a code
    else imp.value[f] = 0.5 * (seen[n / 2 - 1] + seen[n / 2]);
  }
  return imp;
}

void MedianImputer::apply(Dataset& data) const {
  require(value.size() == data.n_features(), "MedianImputer::apply: fitted on ", value.size(),
          " features, dataset ", data.name(), " has ", data.n_features());
  for (std::size_t f = 0; f < data.n_features(); ++f)
    for (double& v : data.mutable_column(f))
      if (std::isnan(v)) v = value[f];
}

void impute_with_all_rows(Dataset& data) {
  if (data.schema().missing_numeric.empty()) return;
  fit_median_imputer(data, all_rows(data.n_rows())).apply(data);
}

}  // namespace dpf
