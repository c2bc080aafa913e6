// MrfModel::save and load_matrix_rf_model (matrix_rf.hpp): a trained matrix random forest as its
// discretiser, its public trees and its released leaf counts.
#include <string>

#include "algorithms/matrix_rf/model.hpp"
#include "core/util/error.hpp"

namespace dpf::mrf {

namespace {

const char* method_name(Method m) {
  switch (m) {
    case Method::kTrain: return "train";
    case Method::kPredict: return "predict";
    case Method::kSubsample: return "subsample";
    case Method::kTrainLM: return "train-lm";
    case Method::kDisjointLM: return "disjoint-lm";
    case Method::kSubsampleLM: return "subsample-lm";
    case Method::kTrees: return "trees";
  }
  return "?";
}

// The leaf codes of a tree (o × d̄, -1 = any value), as build_ensemble records them: the values
// taken on the path to each leaf, leaves in DFS order.
void leaf_codes(const MTree& t, const std::vector<int>& sizes, int node, std::vector<int>& path, std::vector<int>& out) {
  const auto nu = static_cast<std::size_t>(node);
  const int a = t.attr[nu];
  if (a < 0) {
    out.insert(out.end(), path.begin(), path.end());
    return;
  }
  for (int v = 0; v < sizes[static_cast<std::size_t>(a)]; ++v) {
    path[static_cast<std::size_t>(a)] = v;
    leaf_codes(t, sizes, t.child[nu] + v, path, out);
  }
  path[static_cast<std::size_t>(a)] = -1;
}

MTree load_tree(const JsonIn& in, const std::vector<int>& sizes) {
  MTree t;
  const auto d = static_cast<int64_t>(sizes.size());
  const std::vector<int64_t> attr = in["attr"].integers(-1, d - 1);
  const auto n = static_cast<int64_t>(attr.size());
  const std::vector<int64_t> child = in["child"].integers(0, std::max<int64_t>(n - 1, 0));
  if (n == 0 || child.size() != attr.size()) in.fail_here("attr and child need one entry per node (at least one)");
  for (int64_t i = 0; i < n; ++i) {
    const auto iu = static_cast<std::size_t>(i);
    t.attr.push_back(static_cast<int>(attr[iu]));
    t.child.push_back(static_cast<int>(child[iu]));
    if (attr[iu] < 0) {
      if (child[iu] != t.n_leaves++) in.fail_here("node " + std::to_string(i) + ": leaves must be numbered in order");
    } else if (child[iu] <= i || child[iu] + sizes[static_cast<std::size_t>(attr[iu])] > n) {
      // Children after their parent, inside the tree, so routing ends at a leaf.
      in.fail_here("node " + std::to_string(i) + ": children outside the tree");
    }
  }
  return t;
}

}  // namespace

void MrfModel::save(JsonWriter& w) const {
  if (is_prediction_release(p_.method))
    fail(p_.name, ": this method releases noisy votes in predict(), for one batch of queries; the fitted model holds "
                  "the exact leaf counts, so there is no private model to save (predict with it in the process that "
                  "fitted it)");
  w.begin_object();
  w.field("kind", "matrix-rf").field("algorithm", p_.name).field("method", method_name(p_.method)).field("n_classes", k_);
  std::vector<int> sizes;
  for (std::size_t f = 0; f < disc_.n_features(); ++f) sizes.push_back(disc_.size(f));
  w.int_array("sizes", sizes);
  w.key("cuts").begin_array();
  for (std::size_t f = 0; f < disc_.n_features(); ++f) {
    w.begin_array();
    for (double c : disc_.cuts(f)) w.exact(c);
    w.end_array();
  }
  w.end_array();
  w.key("ensembles").begin_array();
  for (const EnsembleFit& ef : ensembles) {
    w.begin_object().int_array("features", ef.e.features).int_array("sizes", ef.e.sizes);
    w.key("trees").begin_array();
    for (const MTree& t : ef.e.trees) w.begin_object().int_array("attr", t.attr).int_array("child", t.child).end_object();
    w.end_array();
    // The released (noisy) leaf counts, o x k row-major.
    w.key("leaf_counts").begin_array();
    for (Eigen::Index l = 0; l < ef.counts.rows(); ++l)
      for (Eigen::Index c = 0; c < ef.counts.cols(); ++c) w.exact(ef.counts(l, c));
    w.end_array();
    w.end_object();
  }
  w.end_array();
  w.end_object();
}

std::unique_ptr<Model> load_matrix_rf_model(const JsonIn& in, const Schema& schema) {
  MrfParams p;
  p.name = in["algorithm"].string();
  const std::string method = in["method"].string();
  for (Method m : {Method::kTrain, Method::kTrainLM, Method::kDisjointLM, Method::kTrees})
    if (method == method_name(m)) p.method = m;
  if (method != method_name(p.method)) in["method"].fail_here("'" + method + "' is not a saved (training) method");
  const auto k = static_cast<int>(in["n_classes"].integer(1, 1 << 16));
  if (static_cast<std::size_t>(k) != schema.target.n_classes()) in["n_classes"].fail_here("does not match the schema");
  const std::size_t nf = schema.n_features();
  std::vector<int> sizes;
  for (int64_t s : in["sizes"].integers(1, 1 << 20)) sizes.push_back(static_cast<int>(s));
  const JsonIn cuts_in = in["cuts"];
  if (sizes.size() != nf || cuts_in.size() != nf) in.fail_here("sizes and cuts need one entry per feature of the schema");
  std::vector<std::vector<double>> cuts;
  for (std::size_t f = 0; f < nf; ++f) {
    cuts.push_back(cuts_in.at(f).size() ? cuts_in.at(f).numbers() : std::vector<double>{});
    const bool categorical = schema.features[f].kind == FeatureKind::kCategorical;
    const int expected = categorical ? static_cast<int>(schema.features[f].n_categories()) : static_cast<int>(cuts[f].size()) + 1;
    if (categorical != cuts[f].empty() || sizes[f] != expected)
      cuts_in.at(f).fail_here("feature '" + schema.features[f].name + "': its cut-offs and code count do not fit its kind");
  }
  auto model = std::make_unique<MrfModel>(p, Discretiser(sizes, cuts), k, Rng(0));
  const JsonIn ens = in["ensembles"];
  for (std::size_t i = 0; i < ens.size(); ++i) {
    const JsonIn e_in = ens.at(i);
    EnsembleFit& ef = model->ensembles.emplace_back();
    for (int64_t f : e_in["features"].integers(0, static_cast<int64_t>(nf) - 1)) ef.e.features.push_back(static_cast<int>(f));
    for (int64_t s : e_in["sizes"].integers(1, 1 << 20)) ef.e.sizes.push_back(static_cast<int>(s));
    if (ef.e.sizes.size() != ef.e.features.size()) e_in.fail_here("features and sizes differ in length");
    for (std::size_t a = 0; a < ef.e.features.size(); ++a)
      if (ef.e.sizes[a] != sizes[static_cast<std::size_t>(ef.e.features[a])]) e_in["sizes"].fail_here("do not match the discretiser");
    const JsonIn trees = e_in["trees"];
    std::vector<int> path(ef.e.sizes.size(), -1);
    for (std::size_t t = 0; t < trees.size(); ++t) {
      MTree tree = load_tree(trees.at(t), ef.e.sizes);
      ef.e.leaf_offset.push_back(ef.e.n_leaves);
      ef.e.n_leaves += tree.n_leaves;
      leaf_codes(tree, ef.e.sizes, 0, path, ef.e.leaf_codes);
      ef.e.trees.push_back(std::move(tree));
    }
    const std::vector<double> counts = e_in["leaf_counts"].numbers();
    if (counts.size() != static_cast<std::size_t>(ef.e.n_leaves) * static_cast<std::size_t>(k))
      e_in["leaf_counts"].fail_here("needs leaves x classes = " + std::to_string(ef.e.n_leaves * k) + " values");
    ef.counts.resize(ef.e.n_leaves, k);
    for (Eigen::Index l = 0; l < ef.counts.rows(); ++l)
      for (Eigen::Index c = 0; c < k; ++c) ef.counts(l, c) = counts[static_cast<std::size_t>(l * k + c)];
  }
  return model;
}

}  // namespace dpf::mrf
