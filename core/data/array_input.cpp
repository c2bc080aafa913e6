#include "core/data/array_input.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/data/preprocess.hpp"
#include "core/util/error.hpp"
#include "core/util/number_text.hpp"

namespace dpf {

Schema array_schema(const ArrayFeatures& spec, const Target& target) {
  const std::size_t n = spec.names.size();
  require(spec.categories.size() == n && spec.lo.size() == n && spec.hi.size() == n,
          "array_schema: ", n, " feature names but ", spec.categories.size(), " category lists and ",
          spec.lo.size(), " bounds");
  Schema s;
  s.target = target;
  s.domains_source = spec.bounds_from_data ? "from-data" : "registry";
  for (std::size_t f = 0; f < n; ++f) {
    Feature feat;
    feat.name = spec.names[f];
    if (!spec.categories[f].empty()) {
      feat.kind = FeatureKind::kCategorical;
      for (const std::string& name : spec.categories[f]) {
        require(std::find(feat.categories.begin(), feat.categories.end(), name) == feat.categories.end(),
                "column '", feat.name, "': category ", name, " is listed twice");
        feat.categories.push_back(name);
      }
    } else {
      feat.kind = FeatureKind::kNumeric;
      if (!spec.bounds_from_data) {
        feat.lo = spec.lo[f];
        feat.hi = spec.hi[f];
        require(std::isfinite(feat.lo) && std::isfinite(feat.hi) && feat.lo <= feat.hi, "column '", feat.name,
                "': bounds [", feat.lo, ", ", feat.hi, "] are not a finite interval lo <= hi");
      }
    }
    s.features.push_back(std::move(feat));
  }
  if (target.task == TaskKind::kRegression)
    require(std::isfinite(target.lo) && std::isfinite(target.hi) && target.lo <= target.hi,
            "target bounds [", target.lo, ", ", target.hi, "] are not a finite interval lo <= hi");
  else
    require(target.n_classes() >= 1, "classification needs at least one class");
  return s;
}

Dataset dataset_from_arrays(const std::string& name, Schema schema, const StridedMatrix& x, const double* y,
                            std::ptrdiff_t y_stride, bool target_from_data) {
  require(x.cols == schema.n_features(), "X has ", x.cols, " columns but the estimator has ", schema.n_features(),
          " features");
  require(x.rows >= 1, "X has no rows");
  const bool from_data = schema.domains_source == "from-data";
  Dataset data(name, schema);
  data.reserve(x.rows);
  std::vector<double> row(x.cols);
  for (std::size_t r = 0; r < x.rows; ++r) {
    for (std::size_t f = 0; f < x.cols; ++f) {
      const Feature& feat = schema.features[f];
      const double v = x.at(r, f);
      if (std::isnan(v)) fail("column '", feat.name, "' (index ", f, "), row ", r, ": NaN (missing values are not supported; impute with a public rule first)");
      if (!std::isfinite(v)) fail("column '", feat.name, "' (index ", f, "), row ", r, ": ", v, " is not finite");
      if (feat.kind == FeatureKind::kCategorical) {
        if (v < 0 || v >= static_cast<double>(feat.categories.size()) || v != std::floor(v))
          fail("column '", feat.name, "' (index ", f, "), row ", r, ": ", format_double(v),
               " is not a category code 0..", feat.categories.size() - 1);
        row[f] = v;
      } else {
        if (!from_data && (v < feat.lo || v > feat.hi))
          fail("column '", feat.name, "' (index ", f, "), row ", r, ": value ", format_double(v),
               " is outside its public domain [", format_double(feat.lo), ", ", format_double(feat.hi),
               "] (widen bounds=, or clip the data to the declared domain; at predict, clip=True does it)");
        row[f] = v;
      }
    }
    double t = 0.0;
    if (y) {
      t = y[static_cast<std::ptrdiff_t>(r) * y_stride];
      if (!std::isfinite(t)) fail("target, row ", r, ": ", t, " is not finite");
      if (schema.target.task == TaskKind::kClassification) {
        if (t < 0 || t >= static_cast<double>(schema.target.n_classes()) || t != std::floor(t))
          fail("target, row ", r, ": class index ", t, " outside 0..", schema.target.n_classes() - 1);
      } else if (!target_from_data && (t < schema.target.lo || t > schema.target.hi)) {
        fail("target, row ", r, ": value ", format_double(t), " is outside the public target bounds [",
             format_double(schema.target.lo), ", ", format_double(schema.target.hi), "]");
      }
    }
    data.add_row(row, t);
  }
  const std::vector<uint32_t> rows = all_rows(data.n_rows());
  if (from_data) domains_from_data(data, rows);
  if (target_from_data && schema.target.task == TaskKind::kRegression && y) {
    double lo = std::numeric_limits<double>::infinity(), hi = -lo;
    for (double t : data.y()) lo = std::min(lo, t), hi = std::max(hi, t);
    data.mutable_schema().target.lo = lo;
    data.mutable_schema().target.hi = hi;
    data.mutable_schema().domains_source = "from-data";
  }
  return data;
}

}  // namespace dpf
