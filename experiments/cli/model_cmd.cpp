#include "experiments/cli/model_cmd.hpp"

#include <boost/program_options.hpp>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>

#include "algorithms/common/params.hpp"
#include "algorithms/registry.hpp"
#include "algorithms/registry_fit.hpp"
#include "core/data/preprocess.hpp"
#include "core/util/error.hpp"
#include "core/util/number_text.hpp"
#include "datasets/registry.hpp"
#include "experiments/cli/cli.hpp"

namespace po = boost::program_options;

namespace dpf {

namespace {

// A user's own fit is private by default, as every library entry point: where the algorithm's default
// configuration is not DP and a repaired variant exists, `strict` defaults to true. The published
// mechanism stays an explicit choice (--param strict=false) and its fit is warned about.
std::map<std::string, std::string> private_by_default(const AlgorithmInfo& info, std::map<std::string, std::string> given,
                                                      TaskKind task) {
  const bool has_strict = std::any_of(info.params.begin(), info.params.end(),
                                      [](const ParamSpec& s) { return s.name == "strict"; });
  if (!info.private_algorithm || !has_strict || given.count("strict")) return given;
  std::map<std::string, std::string> probe = given;
  if (!probe.count("epsilon")) probe["epsilon"] = "1";  // the label does not depend on epsilon's value
  std::string status;
  try {
    status = info.privacy_status(resolve_params(info.name, info.params, probe, "--param"), task);
  } catch (const Error&) {
    status.clear();  // the default cannot be resolved without more: take the repaired variant
  }
  if (!is_dp_label(status)) given["strict"] = "true";
  return given;
}

// One cell of a numeric column: a finite number inside [lo, hi] (or clipped to it).
double numeric_cell(const std::string& cell, const Feature& f, bool clip, const std::string& where) {
  double v = 0.0;
  const auto r = std::from_chars(cell.data(), cell.data() + cell.size(), v);
  if (cell.empty() || r.ec != std::errc() || r.ptr != cell.data() + cell.size() || !std::isfinite(v))
    fail(where, ": '", cell, "' is not a finite number", cell.empty() ? " (missing values are not supported)" : "");
  if (v < f.lo || v > f.hi) {
    if (!clip)
      fail(where, ": ", cell, " is outside the feature's public domain [", format_double(f.lo), ", ", format_double(f.hi),
           "] (pass --clip to clip values to it)");
    v = std::clamp(v, f.lo, f.hi);
  }
  return v;
}

void write_predictions(std::ostream& out, const Predictions& p, const Schema& s) {
  out << "prediction";
  if (p.task == TaskKind::kClassification)
    for (const std::string& c : s.target.classes) out << ",score_" << c;
  out << "\n";
  for (std::size_t i = 0; i < p.n_rows(); ++i) {
    if (p.task == TaskKind::kRegression) {
      out << format_double(p.value[i]) << "\n";
      continue;
    }
    out << s.target.classes[static_cast<std::size_t>(p.label[i])];
    for (int c = 0; c < p.n_classes; ++c) out << "," << format_double(p.value[i * static_cast<std::size_t>(p.n_classes) + static_cast<std::size_t>(c)]);
    out << "\n";
  }
}

}  // namespace

Dataset table_with_schema(const RawTable& table, const Schema& schema, bool clip) {
  std::vector<std::size_t> column_of;
  for (const Feature& f : schema.features) {
    const auto it = std::find(table.columns.begin(), table.columns.end(), f.name);
    if (it == table.columns.end()) {
      std::string names;
      for (const Feature& g : schema.features) names += (names.empty() ? "" : ", ") + g.name;
      fail(table.source, ": no column '", f.name, "' in the header (the model's features: ", names, ")");
    }
    column_of.push_back(static_cast<std::size_t>(it - table.columns.begin()));
  }
  Schema s = schema;
  Dataset data(table.source, s);
  data.reserve(table.rows.size());
  std::vector<double> x(schema.n_features());
  for (std::size_t r = 0; r < table.rows.size(); ++r) {
    const auto& row = table.rows[r];
    for (std::size_t f = 0; f < x.size(); ++f) {
      const Feature& feat = schema.features[f];
      const std::string where = table.source + ", line " + std::to_string(table.line_of_row[r]) + ", column '" + feat.name + "'";
      require(column_of[f] < row.size(), where, ": the row has only ", row.size(), " fields");
      const std::string& cell = row[column_of[f]];
      if (feat.kind == FeatureKind::kNumeric) {
        x[f] = numeric_cell(cell, feat, clip, where);
        continue;
      }
      const auto c = std::find(feat.categories.begin(), feat.categories.end(), cell);
      require(c != feat.categories.end(), where, ": '", cell, "' is not one of the feature's ", feat.categories.size(),
              " categories");
      x[f] = static_cast<double>(c - feat.categories.begin());
    }
    data.add_row(x, 0.0);
  }
  require(data.n_rows() > 0, table.source, ": no data rows");
  return data;
}

int cmd_fit(const std::vector<std::string>& args) {
  po::options_description o("options");
  o.add_options()("help", "show this help")("algorithm", po::value<std::string>()->required(), "registry name")(
      "dataset", po::value<std::string>()->required(), "dataset id or id:variant")(
      "param", po::value<std::vector<std::string>>()->default_value({}, ""), "name=value (repeatable)")(
      "seed", po::value<uint64_t>()->default_value(1), "RNG seed")(
      "bins", po::value<int>()->default_value(0), "bin every numeric feature into K equal-width bins of its public domain first (0: none)")(
      "save", po::value<std::string>()->required(), "write the fitted model here (JSON)");
  // --param strict=false selects an algorithm's published, not-DP mechanism; without it `fit` takes the
  // epsilon-DP variant wherever the default is not DP (private_by_default).
  po::variables_map vm;
  po::store(po::command_line_parser(args).options(o).run(), vm);
  if (vm.count("help")) { std::cout << o; return 0; }
  po::notify(vm);
  const std::string algorithm = vm["algorithm"].as<std::string>(), dataset = vm["dataset"].as<std::string>();
  const int bins = vm["bins"].as<int>();
  require(bins >= 0 && bins <= 1000, "--bins must be in [0, 1000], got ", bins);
  find_algorithm(algorithm);  // an unknown name fails before the dataset loads
  const std::map<std::string, std::string> given = parse_param_options(vm["param"].as<std::vector<std::string>>());
  Dataset data = load_dataset(dataset, DataOptions::from_environment());
  impute_with_all_rows(data);  // as `dpforest describe`: the command fits on all rows
  const Schema input = data.schema();
  if (bins > 0) data = bin_equal_width(data, bins);
  const std::map<std::string, std::string> params =
      private_by_default(find_algorithm(algorithm), given, data.schema().target.task);
  const RegistryFit fit = fit_registry(algorithm, params, data, vm["seed"].as<uint64_t>(), default_threads(), "--param");
  if (fit.info->private_algorithm && !is_dp_label(fit.privacy_status))
    std::fprintf(stderr, "warning: %s with these parameters is not differentially private (%s)%s\n", algorithm.c_str(),
                 fit.privacy_status.c_str(),
                 params.count("strict") && params.at("strict") == "false" ? "; its epsilon-DP variant is strict=true" : "");
  const std::string text = saved_model_json(fit, input, bins);
  const std::string path = vm["save"].as<std::string>();
  std::ofstream f(path, std::ios::binary);
  require(static_cast<bool>(f << text << "\n"), "cannot write '", path, "'");
  const SpentTotals spent = spent_totals(*fit.info, fit.bound, fit.ledger);
  std::printf("%s on %s (%zu rows): %s; epsilon spent %s (a-priori %s), delta %s; saved %s (%zu bytes)\n",
              algorithm.c_str(), dataset.c_str(), data.n_rows(), fit.privacy_status.c_str(),
              format_double(spent.epsilon).c_str(), format_double(fit.bound.epsilon).c_str(),
              format_double(spent.delta).c_str(), path.c_str(), text.size() + 1);
  return 0;
}

int cmd_predict(const std::vector<std::string>& args) {
  po::options_description o("options");
  o.add_options()("help", "show this help")("model", po::value<std::string>()->required(), "saved model (dpforest fit --save)")(
      "data", po::value<std::string>()->required(), "CSV with a header naming the model's features")(
      "out", po::value<std::string>()->default_value(""), "write the predictions here (CSV) instead of stdout")(
      "clip", "clip numeric values outside the public domains to them (default: refuse such rows)");
  po::positional_options_description pos;
  pos.add("model", 1).add("data", 1);
  po::variables_map vm;
  po::store(po::command_line_parser(args).options(o).positional(pos).run(), vm);
  if (vm.count("help")) { std::cout << o; return 0; }
  po::notify(vm);
  const SavedModel m = read_saved_model(vm["model"].as<std::string>());
  TableFormat format;
  format.header = true;
  const RawTable table = read_table(vm["data"].as<std::string>(), format);
  const Dataset data = table_with_schema(table, m.schema, vm.count("clip") > 0);
  const Predictions p = m.predict(data);
  const std::string out = vm["out"].as<std::string>();
  if (out.empty()) {
    write_predictions(std::cout, p, m.schema);
  } else {
    std::ofstream f(out);
    require(static_cast<bool>(f), "cannot write '", out, "'");
    write_predictions(f, p, m.schema);
    require(static_cast<bool>(f), "cannot write '", out, "'");
  }
  return 0;
}

}  // namespace dpf
