#include "algorithms/matrix_rf/forest.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "core/util/error.hpp"

namespace dpf::mrf {

using Eigen::MatrixXd;

Discretiser::Discretiser(const Schema& schema, const std::string& cutoffs) {
  const std::size_t f = schema.n_features();
  sizes_.assign(f, 0);
  cuts_.assign(f, {});
  std::vector<bool> given(f, false);
  // "equal-width:K": every numeric feature gets the K - 1 interior cut-offs of K equal-width bins of
  // its public domain [lo, hi] (a data-independent rule for datasets the paper gives no cut-offs for,
  // e.g. the leaderboard, configs/benchmark; the paper's own cut-offs are per dataset, spec §5.1).
  const std::string kEqualWidth = "equal-width:";
  if (cutoffs.rfind(kEqualWidth, 0) == 0) {
    const std::string k_text = cutoffs.substr(kEqualWidth.size());
    int k = 0;
    try {
      std::size_t used = 0;
      k = std::stoi(k_text, &used);
      if (used != k_text.size()) k = 0;
    } catch (const std::exception&) {
      k = 0;
    }
    require(k >= 2 && k <= 64, "matrix-rf: parameter cutoffs: '", cutoffs, "': K of equal-width:K must be an integer in [2, 64]");
    for (std::size_t i = 0; i < f; ++i) {
      const Feature& ft = schema.features[i];
      if (ft.kind != FeatureKind::kNumeric) continue;
      require(std::isfinite(ft.lo) && std::isfinite(ft.hi) && ft.lo <= ft.hi, "matrix-rf: cutoffs equal-width: feature '",
              ft.name, "' has no finite public domain [lo, hi]");
      // A one-point public domain [c, c] (a feature the schema declares constant) has no K bins of
      // positive width: its one cut-off is c itself (codes: x <= c, x > c), so the feature keeps the
      // numeric coding (a numeric feature always has a cut-off) and every in-domain value shares a bin.
      if (ft.lo < ft.hi)
        for (int j = 1; j < k; ++j) cuts_[i].push_back(ft.lo + (ft.hi - ft.lo) * j / k);
      else
        cuts_[i].push_back(ft.lo);
      given[i] = true;
    }
  }
  std::string spec = cutoffs.rfind(kEqualWidth, 0) == 0 ? std::string() : cutoffs;
  std::replace(spec.begin(), spec.end(), ';', ' ');
  std::stringstream ss(spec);
  std::string item;
  while (ss >> item) {
    if (item.find_first_not_of(' ') == std::string::npos) continue;
    const auto eq = item.find('=');
    require(eq != std::string::npos, "matrix-rf: parameter cutoffs: '", item, "' is not name=c1/c2/...");
    std::string name = item.substr(0, eq);
    name.erase(0, name.find_first_not_of(' '));
    name.erase(name.find_last_not_of(' ') + 1);
    const int idx = schema.find_feature(name);
    require(idx >= 0, "matrix-rf: parameter cutoffs names '", name, "', which is not a feature of the dataset");
    const auto i = static_cast<std::size_t>(idx);
    require(schema.features[i].kind == FeatureKind::kNumeric, "matrix-rf: parameter cutoffs: feature '", name,
            "' is categorical (its codes are used as they are)");
    std::stringstream cs(item.substr(eq + 1));
    std::string c;
    while (std::getline(cs, c, '/')) cuts_[i].push_back(std::stod(c));
    require(std::is_sorted(cuts_[i].begin(), cuts_[i].end()) && !cuts_[i].empty(),
            "matrix-rf: parameter cutoffs: the cut-offs of '", name, "' must be non-empty and increasing");
    given[i] = true;
  }
  for (std::size_t i = 0; i < f; ++i) {
    const Feature& ft = schema.features[i];
    if (ft.kind == FeatureKind::kCategorical) {
      sizes_[i] = static_cast<int>(ft.n_categories());
    } else {
      require(given[i], "matrix-rf: numeric feature '", ft.name,
              "' needs cut-offs (parameter cutoffs, e.g. \"", ft.name, "=c1/c2\"; spec §5.1)");
      sizes_[i] = static_cast<int>(cuts_[i].size()) + 1;
    }
    require(sizes_[i] >= 1, "matrix-rf: feature '", ft.name, "' has an empty domain");
  }
}

std::vector<int> Discretiser::encode(const Dataset& data, std::span<const uint32_t> rows) const {
  const std::size_t f = sizes_.size();
  std::vector<int> out(rows.size() * f);
  for (std::size_t a = 0; a < f; ++a) {
    std::span<const double> col = data.column(a);
    for (std::size_t r = 0; r < rows.size(); ++r) {
      const double v = col[rows[r]];
      int code;
      if (cuts_[a].empty()) code = static_cast<int>(v);
      else code = static_cast<int>(std::lower_bound(cuts_[a].begin(), cuts_[a].end(), v) - cuts_[a].begin());
      out[r * f + a] = code;  // lower_bound: v ≤ c_j goes to bin j (right-closed, pandas cut)
    }
  }
  return out;
}

uint64_t Ensemble::domain_size(uint64_t limit) const {
  uint64_t n = 1;
  for (int s : sizes) {
    if (n > limit / static_cast<uint64_t>(s)) return 0;
    n *= static_cast<uint64_t>(s);
  }
  return n <= limit ? n : 0;
}

void Ensemble::project(const int* row_codes, int* out) const {
  for (std::size_t a = 0; a < features.size(); ++a) out[a] = row_codes[features[a]];
}

namespace {

struct TreeBuilder {
  const std::vector<int>& sizes;
  Rng& rng;
  MTree& tree;
  std::vector<int>& leaf_codes;
  std::vector<int> path;

  // Fills node `node` (already allocated) with `avail` attributes left and depth h left.
  void grow(int node, std::vector<int>& avail, int h) {
    const auto nu = static_cast<std::size_t>(node);
    if (h == 0 || avail.empty()) {
      tree.attr[nu] = -1;
      tree.child[nu] = tree.n_leaves++;
      leaf_codes.insert(leaf_codes.end(), path.begin(), path.end());
      return;
    }
    const std::size_t pick = static_cast<std::size_t>(rng.below(avail.size()));  // §2.1 step 3
    const int a = avail[pick];
    const int na = sizes[static_cast<std::size_t>(a)];
    const int first = static_cast<int>(tree.attr.size());
    tree.attr[nu] = a;
    tree.child[nu] = first;
    tree.attr.resize(tree.attr.size() + static_cast<std::size_t>(na), -1);
    tree.child.resize(tree.child.size() + static_cast<std::size_t>(na), 0);
    avail.erase(avail.begin() + static_cast<std::ptrdiff_t>(pick));
    for (int v = 0; v < na; ++v) {
      path[static_cast<std::size_t>(a)] = v;
      grow(first + v, avail, h - 1);
    }
    path[static_cast<std::size_t>(a)] = -1;
    avail.insert(avail.begin() + static_cast<std::ptrdiff_t>(pick), a);
  }
};

}  // namespace

Ensemble build_ensemble(std::vector<int> features, std::vector<int> sizes, int n_trees, int depth, Rng& rng) {
  Ensemble e;
  e.features = std::move(features);
  e.sizes = std::move(sizes);
  for (int t = 0; t < n_trees; ++t) {
    MTree tree;
    tree.attr.assign(1, -1);
    tree.child.assign(1, 0);
    Rng tr = rng.derive(static_cast<uint64_t>(t));
    std::vector<int> codes;
    TreeBuilder b{e.sizes, tr, tree, codes, std::vector<int>(e.sizes.size(), -1)};
    std::vector<int> avail(e.sizes.size());
    for (std::size_t a = 0; a < avail.size(); ++a) avail[a] = static_cast<int>(a);
    b.grow(0, avail, depth);
    e.leaf_offset.push_back(e.n_leaves);
    e.n_leaves += tree.n_leaves;
    e.leaf_codes.insert(e.leaf_codes.end(), codes.begin(), codes.end());
    e.trees.push_back(std::move(tree));
  }
  return e;
}

DomainMap map_domain(const Ensemble& e, uint64_t limit) {
  DomainMap m;
  m.n = e.domain_size(limit);
  require(m.n > 0, "matrix-rf: the ensemble's feature domain exceeds ", limit,
          " cells; use ensembles over fewer features (ensemble_features, spec §2.4)");
  m.n_trees = static_cast<int>(e.trees.size());
  m.n_leaves = e.n_leaves;
  const std::size_t n = static_cast<std::size_t>(m.n), d = e.d();
  m.leaf_of.resize(n * e.trees.size());
  std::vector<int> x(d, 0);
  for (std::size_t cell = 0; cell < n; ++cell) {
    for (std::size_t t = 0; t < e.trees.size(); ++t)
      m.leaf_of[t * n + cell] = static_cast<uint32_t>(e.leaf_offset[t] + e.trees[t].leaf(x.data()));
    for (std::size_t a = d; a-- > 0;) {  // mixed-radix increment, last attribute fastest (§1.1)
      if (++x[a] < e.sizes[a]) break;
      x[a] = 0;
    }
  }
  m.cell_start.assign(static_cast<std::size_t>(m.n_leaves) + 1, 0);
  for (uint32_t l : m.leaf_of) ++m.cell_start[l + 1];
  for (std::size_t l = 0; l < static_cast<std::size_t>(m.n_leaves); ++l) m.cell_start[l + 1] += m.cell_start[l];
  m.cells.resize(m.leaf_of.size());
  std::vector<uint32_t> pos(m.cell_start.begin(), m.cell_start.end() - 1);
  for (std::size_t t = 0; t < e.trees.size(); ++t)
    for (std::size_t cell = 0; cell < n; ++cell) m.cells[pos[m.leaf_of[t * n + cell]]++] = static_cast<uint32_t>(cell);
  return m;
}

MatrixXd leaf_sums(const DomainMap& m, const MatrixXd& y) {
  const auto n = static_cast<std::size_t>(m.n);
  MatrixXd out = MatrixXd::Zero(m.n_leaves, y.cols());
  for (Eigen::Index c = 0; c < y.cols(); ++c)
    for (std::size_t t = 0; t < static_cast<std::size_t>(m.n_trees); ++t) {
      const uint32_t* lo = m.leaf_of.data() + t * n;
      for (std::size_t x = 0; x < n; ++x) out(lo[x], c) += y(static_cast<Eigen::Index>(x), c);
    }
  return out;
}

MatrixXd cell_sums(const DomainMap& m, const MatrixXd& u) {
  const auto n = static_cast<std::size_t>(m.n);
  MatrixXd out = MatrixXd::Zero(static_cast<Eigen::Index>(n), u.cols());
  for (Eigen::Index c = 0; c < u.cols(); ++c)
    for (std::size_t t = 0; t < static_cast<std::size_t>(m.n_trees); ++t) {
      const uint32_t* lo = m.leaf_of.data() + t * n;
      for (std::size_t x = 0; x < n; ++x) out(static_cast<Eigen::Index>(x), c) += u(lo[x], c);
    }
  return out;
}

std::vector<uint32_t> query_leaves(const Ensemble& e, const std::vector<int>& codes, std::size_t n_rows) {
  const std::size_t f = n_rows == 0 ? 0 : codes.size() / n_rows, tau = e.trees.size();
  std::vector<uint32_t> q(n_rows * tau);
  std::vector<int> local(e.d());
  for (std::size_t i = 0; i < n_rows; ++i) {
    e.project(codes.data() + i * f, local.data());
    for (std::size_t t = 0; t < tau; ++t)
      q[i * tau + t] = static_cast<uint32_t>(e.leaf_offset[t] + e.trees[t].leaf(local.data()));
  }
  return q;
}

GramOperator gram_training(const DomainMap& m) {
  GramOperator g;
  g.n = static_cast<Eigen::Index>(m.n);
  g.diag = Eigen::VectorXd::Constant(g.n, m.n_trees);  // each column of T has τ ones (§1.4)
  g.apply = [&m](const MatrixXd& v) -> MatrixXd { return cell_sums(m, leaf_sums(m, v)); };
  return g;
}

namespace {

// (QTᵀ)·U: b × c, query i sums its τ leaves' rows.
MatrixXd query_sums(const std::vector<uint32_t>& qleaf, int tau, const MatrixXd& u) {
  const std::size_t b = qleaf.size() / static_cast<std::size_t>(tau);
  MatrixXd out = MatrixXd::Zero(static_cast<Eigen::Index>(b), u.cols());
  for (std::size_t i = 0; i < b; ++i)
    for (int t = 0; t < tau; ++t) out.row(static_cast<Eigen::Index>(i)) += u.row(qleaf[i * static_cast<std::size_t>(tau) + static_cast<std::size_t>(t)]);
  return out;
}

// (QTᵀ)ᵀ·W: o × c.
MatrixXd query_scatter(const std::vector<uint32_t>& qleaf, int tau, int n_leaves, const MatrixXd& w) {
  const std::size_t b = qleaf.size() / static_cast<std::size_t>(tau);
  MatrixXd out = MatrixXd::Zero(n_leaves, w.cols());
  for (std::size_t i = 0; i < b; ++i)
    for (int t = 0; t < tau; ++t) out.row(qleaf[i * static_cast<std::size_t>(tau) + static_cast<std::size_t>(t)]) += w.row(static_cast<Eigen::Index>(i));
  return out;
}

}  // namespace

GramOperator gram_prediction(const DomainMap& m, const std::vector<uint32_t>& qleaf) {
  GramOperator g;
  g.n = static_cast<Eigen::Index>(m.n);
  const int tau = m.n_trees;
  const std::size_t b = qleaf.size() / static_cast<std::size_t>(tau);
  // diag(G)_x = Σ_i W_ix², W_ix = #trees in which x shares query i's leaf: accumulate sparsely.
  g.diag = Eigen::VectorXd::Zero(g.n);
  std::vector<int> w(static_cast<std::size_t>(m.n), 0);
  std::vector<uint32_t> touched;
  for (std::size_t i = 0; i < b; ++i) {
    for (int t = 0; t < tau; ++t) {
      const uint32_t l = qleaf[i * static_cast<std::size_t>(tau) + static_cast<std::size_t>(t)];
      for (uint32_t c = m.cell_start[l]; c < m.cell_start[l + 1]; ++c) {
        if (w[m.cells[c]]++ == 0) touched.push_back(m.cells[c]);
      }
    }
    for (uint32_t x : touched) {
      g.diag[x] += static_cast<double>(w[x]) * w[x];
      w[x] = 0;
    }
    touched.clear();
  }
  g.apply = [&m, qleaf, tau](const MatrixXd& v) -> MatrixXd {
    MatrixXd wv = query_sums(qleaf, tau, leaf_sums(m, v));          // W·v = QTᵀ(T v)
    return cell_sums(m, query_scatter(qleaf, tau, m.n_leaves, wv));  // Wᵀ(Wv) = Tᵀ(TQᵀ Wv)
  };
  return g;
}

GramOperator gram_subsample(int n_leaves, int n_trees, const std::vector<uint32_t>& qleaf) {
  GramOperator g;
  g.n = n_leaves;
  g.diag = Eigen::VectorXd::Zero(n_leaves);
  for (uint32_t l : qleaf) g.diag[l] += 1;  // (QTᵀ) has 0/1 entries
  g.apply = [qleaf, n_trees, n_leaves](const MatrixXd& u) -> MatrixXd {
    return query_scatter(qleaf, n_trees, n_leaves, query_sums(qleaf, n_trees, u));
  };
  return g;
}

}  // namespace dpf::mrf
