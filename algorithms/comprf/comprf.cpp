#include "algorithms/comprf/comprf.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <optional>
#include <type_traits>

#include "algorithms/common/param_set.hpp"
#include "algorithms/common/shared_params.hpp"
#include "core/util/error.hpp"
#include "core/util/json.hpp"

namespace dpf {

namespace {

// A split keeps its two pivots as the hyperplane between them: x is closer to (or as close to) the
// first pivot p than to q iff |x-p|^2 <= |x-q|^2 iff x.(q-p) <= (|q|^2 - |p|^2)/2, one dot product
// instead of two distances. Ties still go to the first pivot [H]; on integer-coded data (Car,
// Connect-4) both sides are exact, elsewhere rounding may move points at distance ties.
// q - p is stored sparse (the features where the pivots differ, in feature order): on categorical
// codes most features agree (Connect-4: about a third differ), and skipping the exact zero terms
// leaves every dot product bit-identical to the dense sum (adding x * 0 = +-0 never changes it).
struct CompNode {
  int32_t left = -1;      // children left, left + 1 (-1: leaf)
  int32_t w = -1;         // offset of q - p's nonzero entries in the tree's W / F
  int32_t nnz = 0;        // how many
  double b = 0;           // (|q|^2 - |p|^2) / 2
  double label_sum = 0;   // leaf: sum of the -1/+1 labels of its training points
  double count = 0;       // leaf: number of training points
};

// x . w over w's nonzero entries (values v, features f), in feature order. On small-integer rows
// (int8 x, integer v) the sum is an int: exact, and equal to the double sum, whose partial sums are
// integers below 2^53 (see small_int_max).
template <class T, class V>
inline auto sparse_dot(const T* x, const V* v, const uint32_t* f, int32_t nnz) {
  std::conditional_t<std::is_integral_v<T>, int32_t, double> dot = 0;
  for (int32_t k = 0; k < nnz; ++k) dot += x[f[k]] * v[k];
  return dot;
}

struct CompTree {
  std::size_t D = 0;
  std::vector<CompNode> nodes;
  std::vector<double> W;    // the internal nodes' nonzero q - p values, contiguous
  std::vector<uint32_t> F;  // their features
  // The integer predict path's copy of the splits (int8 rows; see small_int_max): one record of 32-bit
  // words per split node, so a routing step reads one contiguous record instead of a node, W and F:
  // [left ref, right ref, b (low, high word), nnz, nnz x (feature << 16 | int16 q - p), zeros up to a
  // multiple of kChunk entries]. A ref >= 0 is a record's offset, a ref < 0 the leaf node ~ref. The
  // padding (+ x[0] * 0) lets the dot run whole chunks: a loop whose trip count varies from node to
  // node mispredicts its exit at every step. Empty unless W are int16 integers and D <= 2^16.
  static constexpr int32_t kChunk = 8;
  std::vector<uint32_t> route;
  int32_t root_ref = 0;
  // Fills route if W and D allow it; returns max |W| then (0 without a split), else -1.
  int index_integers() {
    route.clear();
    int m = 0;
    for (double v : W) {
      if (!(std::abs(v) <= 32767) || v != std::trunc(v)) return -1;
      m = std::max(m, static_cast<int>(std::abs(v)));
    }
    std::vector<int64_t> ref(nodes.size());
    int64_t size = 0;
    for (std::size_t j = 0; j < nodes.size(); ++j) {
      ref[j] = nodes[j].left < 0 ? ~static_cast<int64_t>(j) : size;
      if (nodes[j].left >= 0) size += 5 + (nodes[j].nnz + kChunk - 1) / kChunk * kChunk;
    }
    if (D > (1u << 16) || size > INT32_MAX || static_cast<int64_t>(nodes.size()) > INT32_MAX) return -1;
    for (const CompNode& nd : nodes) {
      if (nd.left < 0) continue;
      const auto bits = std::bit_cast<uint64_t>(nd.b);
      route.insert(route.end(), {static_cast<uint32_t>(ref[static_cast<std::size_t>(nd.left)]),
                                 static_cast<uint32_t>(ref[static_cast<std::size_t>(nd.left) + 1]),
                                 static_cast<uint32_t>(bits), static_cast<uint32_t>(bits >> 32),
                                 static_cast<uint32_t>(nd.nnz)});
      for (int32_t k = nd.w; k < nd.w + nd.nnz; ++k) {
        const auto w = static_cast<uint16_t>(static_cast<int16_t>(W[static_cast<std::size_t>(k)]));
        route.push_back(F[static_cast<std::size_t>(k)] << 16 | w);
      }
      route.resize(route.size() + static_cast<std::size_t>((kChunk - nd.nnz % kChunk) % kChunk), 0);
    }
    root_ref = static_cast<int32_t>(ref[0]);
    return m;
  }
  // Routing as steps between refs (ref >= 0: a split, ref < 0: the leaf node ~ref), so that predict can
  // interleave the steps of several rows. Double rows: a split's ref is its node index; int8 rows: its
  // record in route, where the int dot is exactly the double one (see small_int_max).
  int32_t root(const double*) const { return nodes[0].left >= 0 ? 0 : ~0; }
  int32_t root(const int8_t*) const { return root_ref; }
  int32_t step(int32_t ref, const double* x) const {
    const CompNode& nd = nodes[static_cast<std::size_t>(ref)];
    const double dot = sparse_dot(x, W.data() + nd.w, F.data() + nd.w, nd.nnz);
    const int32_t n = nd.left + (dot <= nd.b ? 0 : 1);
    return nodes[static_cast<std::size_t>(n)].left >= 0 ? n : ~n;
  }
  int32_t step(int32_t ref, const int8_t* x) const {
    const uint32_t* r = route.data() + ref;
    const double b = std::bit_cast<double>(r[2] | uint64_t{r[3]} << 32);
    int32_t dot = 0;
    for (uint32_t k = 5; k < 5 + r[4]; k += kChunk)
      for (uint32_t u = k; u < k + kChunk; ++u) dot += x[r[u] >> 16] * static_cast<int16_t>(r[u] & 0xffff);
    return static_cast<int32_t>(r[static_cast<double>(dot) <= b ? 0 : 1]);
  }
};

struct CompParams {
  std::string name;         // registry name, for messages
  int n_trees = 100, n0 = 5;
  bool supervised = false;  // CompRF-I
};

// The data set's rows laid out row-major (one contiguous feature vector per row): every distance and
// the collapse sums read whole rows, which the columnar Dataset scatters over D columns. Row r of
// `rows` sits at r * D (by_id, the fit) or at its position i in `rows` (predict).
template <class T>
struct RowMajor {
  std::size_t D = 0;
  std::vector<T> x;
  RowMajor(const Dataset& data, std::span<const uint32_t> rows, bool by_id)
      : D(data.n_features()), x((by_id ? data.n_rows() : rows.size()) * D, T(0)) {
    for (std::size_t f = 0; f < D; ++f) {
      std::span<const double> col = data.column(f);
      for (std::size_t i = 0; i < rows.size(); ++i)
        x[(by_id ? rows[i] : i) * D + f] = static_cast<T>(col[rows[i]]);
    }
  }
  const T* row(std::size_t r) const { return x.data() + r * D; }
};

// The integer path. Categorical codes and count data (Car, Nursery, Connect-4) are small integers;
// held as int8 the row-major copy is 8x smaller (Connect-4: 2.5 MB instead of 20 MB, which cache-missed
// on every dot product) and dots, squared norms and moments run in integer arithmetic. This is exact
// and equal to the double path bit for bit: with every |x| <= M, every partial sum of the double path
// (x . (q-p) <= D * 2M^2, |p|^2 <= D * M^2, moment sums <= n * M^2) is an integer below 2^53, hence
// computed without rounding, so both paths hold the same numbers, make the same comparisons and store
// the same W, b. Returns M if every value of `rows` is an integer in int8 range and D * 2M^2 fits the
// int32 dot (which implies all of the above: n < 2^32, M^2 <= 2^14), else -1 (the double path).
int small_int_max(const Dataset& data, std::span<const uint32_t> rows) {
  int m = 0;
  for (std::size_t f = 0; f < data.n_features(); ++f) {
    std::span<const double> col = data.column(f);
    for (uint32_t r : rows) {
      const double v = col[r];
      if (!(v >= -128 && v <= 127) || v != std::trunc(v)) return -1;
      m = std::max(m, static_cast<int>(std::abs(v)));
    }
  }
  const auto bound = static_cast<int64_t>(data.n_features()) * 2 * m * m;
  return bound < (int64_t{1} << 31) ? m : -1;
}

// Per-feature sums and sums of squares of a node's rows (CompRF-C's collapse test), in int64 on the
// integer path (exact) and in double otherwise.
template <class Acc>
struct Moments {
  std::vector<Acc> s, s2;
  explicit Moments(std::size_t D = 0) : s(D, Acc(0)), s2(D, Acc(0)) {}
  void clear(std::size_t D) {  // D zeros (storage reused unless moved from)
    s.assign(D, Acc(0));
    s2.assign(D, Acc(0));
  }
  template <class T>
  void add(const T* x) {
    for (std::size_t f = 0; f < s.size(); ++f) {
      s[f] += x[f];
      s2[f] += static_cast<Acc>(x[f]) * x[f];
    }
  }
  // this = a - b: the right child's sums from the parent's and the left child's (integers only: exact).
  void difference(const Moments& a, const Moments& b) {
    s.resize(a.s.size());
    s2.resize(a.s.size());
    for (std::size_t f = 0; f < s.size(); ++f) {
      s[f] = a.s[f] - b.s[f];
      s2[f] = a.s2[f] - b.s2[f];
    }
  }
  // Mean per-feature std < 0.01 x mean of all feature values of the node's n rows [H].
  bool collapsed(double n) const {
    const auto D = static_cast<double>(s.size());
    double sd_sum = 0, all_sum = 0;
    for (std::size_t f = 0; f < s.size(); ++f) {
      const double sf = static_cast<double>(s[f]), m = sf / n;
      sd_sum += std::sqrt(std::max(0.0, static_cast<double>(s2[f]) / n - m * m));
      all_sum += sf;
    }
    return sd_sum / D < 0.01 * all_sum / (D * n);
  }
};

// Grows one tree on double or int8 rows (T). A split attempt routes the node's rows in one pass into
// two buffers (stable) and, for CompRF-C, accumulates the children's moments in the same pass, so the
// collapse test of a child costs O(D) instead of another pass over its rows. On integer rows the sums
// wait for an accepted split and cover only the smaller child: the other's are the parent's minus those.
template <class T>
CompTree grow(const RowMajor<T>& X, std::vector<uint32_t> rows, const std::vector<double>& sign, const CompParams& p,
              Rng rng) {
  constexpr bool exact = std::is_integral_v<T>;
  using Acc = std::conditional_t<exact, int64_t, double>;  // squared norms and moments
  using Diff = std::conditional_t<exact, int16_t, double>;  // q - p
  const std::size_t D = X.D;
  CompTree t;
  t.D = D;
  t.nodes.emplace_back();
  struct Pending {
    int32_t node;
    std::size_t a, b;
    Moments<Acc> m;
  };
  const bool moments = !p.supervised;
  Moments<Acc> root(moments ? D : 0);
  if (moments)
    for (uint32_t i : rows) root.add(X.row(i));
  std::vector<Pending> stack;
  stack.push_back({0, 0, rows.size(), std::move(root)});
  std::vector<uint32_t> right;
  std::vector<Diff> w;       // q - p: nonzero values
  std::vector<uint32_t> wf;  // and their features
  Moments<Acc> ml(moments ? D : 0), mr(moments ? D : 0);
  while (!stack.empty()) {
    Pending pd = std::move(stack.back());
    stack.pop_back();
    std::span<uint32_t> r(rows.data() + pd.a, pd.b - pd.a);
    auto make_leaf = [&] {
      CompNode& nd = t.nodes[static_cast<std::size_t>(pd.node)];
      for (uint32_t i : r) nd.label_sum += sign[i];
      nd.count = static_cast<double>(r.size());
    };
    if (r.size() <= static_cast<std::size_t>(p.n0) || (moments && pd.m.collapsed(static_cast<double>(r.size())))) {
      make_leaf();
      continue;
    }
    bool pure = true;
    for (uint32_t i : r) pure = pure && sign[i] == sign[r[0]];
    std::size_t split_at = 0;
    double b = 0;
    for (int attempt = 0; attempt < 20 && split_at == 0; ++attempt) {
      uint32_t pa = r[rng.below(r.size())], pb = r[rng.below(r.size())];
      // CompRF-I: up to 5 draws for pivots with different labels (a pure node takes any pair) [H].
      for (int k = 0; p.supervised && !pure && k < 5 && (sign[pa] == sign[pb] || pa == pb); ++k) {
        pa = r[rng.below(r.size())];
        pb = r[rng.below(r.size())];
      }
      if (pa == pb) continue;
      const T* pp = X.row(pa);
      const T* qq = X.row(pb);
      Acc np = 0, nq = 0;
      w.clear();
      wf.clear();
      for (std::size_t f = 0; f < D; ++f) {
        const auto d = static_cast<Diff>(qq[f] - pp[f]);
        if (d != 0) {
          w.push_back(d);
          wf.push_back(static_cast<uint32_t>(f));
        }
        np += static_cast<Acc>(pp[f]) * pp[f];
        nq += static_cast<Acc>(qq[f]) * qq[f];
      }
      const auto nnz = static_cast<int32_t>(w.size());
      b = 0.5 * static_cast<double>(nq - np);
      if (moments && !exact) ml.clear(D), mr.clear(D);
      right.resize(r.size());
      std::size_t nl = 0, nr = 0;
      for (uint32_t i : r) {  // branch-free: the side is a coin flip on most nodes
        const T* x = X.row(i);
        const bool left = static_cast<double>(sparse_dot(x, w.data(), wf.data(), nnz)) <= b;
        if (moments && !exact) (left ? ml : mr).add(x);
        r[nl] = i;  // nl never passes the read position: stable in place
        right[nr] = i;
        nl += left;
        nr += !left;
      }
      std::copy_n(right.begin(), nr, r.begin() + static_cast<std::ptrdiff_t>(nl));
      split_at = nl == r.size() ? 0 : nl;  // an empty side: redraw [H]
    }
    if (split_at == 0) { make_leaf(); continue; }
    if (moments && exact) {  // the smaller child's sums; the other's = the parent's - those (exact)
      const bool left_small = split_at <= r.size() - split_at;
      Moments<Acc>& small = left_small ? ml : mr;
      small.clear(D);
      for (uint32_t i : left_small ? r.first(split_at) : r.subspan(split_at)) small.add(X.row(i));
      (left_small ? mr : ml).difference(pd.m, small);
    }
    const auto first = static_cast<int32_t>(t.nodes.size());
    t.nodes.emplace_back();
    t.nodes.emplace_back();
    CompNode& nd = t.nodes[static_cast<std::size_t>(pd.node)];
    nd.left = first;
    nd.w = static_cast<int32_t>(t.W.size());
    nd.nnz = static_cast<int32_t>(w.size());
    nd.b = b;
    t.W.insert(t.W.end(), w.begin(), w.end());
    t.F.insert(t.F.end(), wf.begin(), wf.end());
    stack.push_back({first, pd.a, pd.a + split_at, std::move(ml)});
    stack.push_back({first + 1, pd.a + split_at, pd.b, std::move(mr)});
  }
  return t;
}

class CompRfModel : public Model {
 public:
  CompRfModel(std::string name, int n_classes) : name_(std::move(name)), n_classes_(n_classes) {}
  // forests_[k] is the binary forest of the k-th class pair (a, b), a < b.
  std::vector<std::pair<int, int>> pairs_;
  std::vector<std::vector<CompTree>> forests_;

  int w_max_ = -1;  // max |W| over all trees if every W is an integer in int16 range (index_integers), else -1

  // After fitting or loading: every tree's integer route (if its W allow one) and w_max_.
  void index_integers() {
    w_max_ = 0;
    for (auto& f : forests_)
      for (CompTree& t : f) {
        const int m = t.index_integers();
        w_max_ = m < 0 || w_max_ < 0 ? -1 : std::max(w_max_, m);
      }
  }

  // Pooled mean label of the leaves each row reaches over binary forest k [H] (0 if they are all
  // empty), into score[i]. Tree-major: one tree routes every row while it sits in cache (row-major, or
  // blocks of rows through all trees, would fetch the nodes of every tree again per row or block); per
  // row the sums still run over the trees in order. Groups of rows descend together, one step each in
  // turn: a step waits on memory for its node, and the rows' independent steps overlap those waits.
  template <class T>
  void scores(std::size_t k, const RowMajor<T>& X, std::vector<double>& score) const {
    constexpr std::size_t G = 8;
    const std::size_t n = score.size();
    std::vector<double> s(n, 0.0), cnt(n, 0.0);
    for (const CompTree& t : forests_[k])
      for (std::size_t i0 = 0; i0 < n; i0 += G) {
        const std::size_t g = std::min(G, n - i0);
        int32_t ref[G];
        std::fill_n(ref, g, t.root(X.row(0)));
        for (bool busy = true; busy;) {
          busy = false;
          for (std::size_t j = 0; j < g; ++j)
            if (ref[j] >= 0) ref[j] = t.step(ref[j], X.row(i0 + j)), busy = true;
        }
        for (std::size_t j = 0; j < g; ++j) {
          const CompNode& l = t.nodes[static_cast<std::size_t>(~ref[j])];
          s[i0 + j] += l.label_sum;
          cnt[i0 + j] += l.count;
        }
      }
    for (std::size_t i = 0; i < n; ++i) score[i] = cnt[i] > 0 ? s[i] / cnt[i] : 0.0;
  }

  Predictions predict(const Dataset& data, std::span<const uint32_t> rows) const override {
    Predictions out;
    out.task = TaskKind::kClassification;
    out.n_classes = n_classes_;
    const auto C = static_cast<std::size_t>(n_classes_);
    const std::size_t n = rows.size(), D = data.n_features();
    out.value.assign(n * C, 0.0);
    out.label.resize(n);
    // The integer path (see small_int_max) when the rows are small integers and so is every tree's W,
    // with dots bounded by D * M * max|W| < 2^31: the same dot values, exactly, as the double path.
    const int M = w_max_ < 0 ? -1 : small_int_max(data, rows);
    const bool ints = M >= 0 && static_cast<int64_t>(D) * M * w_max_ < (int64_t{1} << 31);
    std::optional<RowMajor<int8_t>> Xi;
    std::optional<RowMajor<double>> Xd;
    if (ints) Xi.emplace(data, rows, false);
    else Xd.emplace(data, rows, false);
    std::vector<double> row_sum(n * C, 0.0), score(n);
    for (std::size_t k = 0; k < pairs_.size(); ++k) {
      if (ints) scores(k, *Xi, score);  // > 0 favours b
      else scores(k, *Xd, score);
      for (std::size_t i = 0; i < n; ++i) {
        row_sum[i * C + static_cast<std::size_t>(pairs_[k].first)] += score[i];
        row_sum[i * C + static_cast<std::size_t>(pairs_[k].second)] -= score[i];
      }
    }
    // Scores: -row sum mapped to [0, 1] per class (binary: the class-1 score is (s + 1) / 2).
    const double span = 2.0 * static_cast<double>(C > 1 ? C - 1 : 1);
    for (std::size_t i = 0; i < n; ++i) {
      const double* rs = row_sum.data() + i * C;
      out.label[i] = static_cast<int>(std::min_element(rs, rs + C) - rs);
      for (std::size_t c = 0; c < C; ++c) out.value[i * C + c] = 0.5 - rs[c] / span;
    }
    return out;
  }

  // A non-private baseline: its model is its release. Per class pair, per tree: the split
  // hyperplanes (sparse q - p, offset b) and every leaf's label sum and count, which predict() pools.
  void save(JsonWriter& w) const override {
    w.begin_object();
    w.field("kind", "comprf").field("algorithm", name_).field("n_classes", n_classes_);
    w.key("pairs").begin_array();
    for (std::size_t k = 0; k < pairs_.size(); ++k) {
      w.begin_object().field("a", pairs_[k].first).field("b", pairs_[k].second);
      w.key("trees").begin_array();
      for (const CompTree& t : forests_[k]) {
        std::vector<int64_t> left, offset, nnz;
        std::vector<double> b, label_sum, count;
        for (const CompNode& n : t.nodes) {
          left.push_back(n.left);
          if (n.left >= 0) {
            offset.push_back(n.w);
            nnz.push_back(n.nnz);
            b.push_back(n.b);
          } else {
            label_sum.push_back(n.label_sum);
            count.push_back(n.count);
          }
        }
        w.begin_object().int_array("left", left).int_array("w", offset).int_array("nnz", nnz).exact_array("b", b);
        w.exact_array("W", t.W).int_array("F", t.F).exact_array("label_sum", label_sum).exact_array("count", count);
        w.end_object();
      }
      w.end_array();
      w.end_object();
    }
    w.end_array();
    w.end_object();
  }

  ModelStats stats() const override {
    ModelStats s;
    double depth = 0;
    for (const auto& f : forests_)
      for (const CompTree& t : f) {
        ++s.n_trees;
        for (const CompNode& n : t.nodes)
          if (n.left < 0) {
            ++s.n_leaves;
            s.empty_leaf_fraction += n.count == 0;
          }
        depth += std::log2(static_cast<double>(t.nodes.size() + 1));
      }
    s.empty_leaf_fraction = s.n_leaves ? s.empty_leaf_fraction / static_cast<double>(s.n_leaves) : 0.0;
    s.mean_depth = s.n_trees ? depth / static_cast<double>(s.n_trees) : 0.0;  // log2 of node count: a size proxy
    return s;
  }

  std::string describe() const override {
    JsonWriter w;
    w.begin_object();
    w.field("algorithm", name_);
    w.field("n_classes", n_classes_);
    w.key("pairs").begin_array();
    for (std::size_t k = 0; k < pairs_.size(); ++k) {
      w.begin_object();
      w.field("a", pairs_[k].first).field("b", pairs_[k].second);
      w.key("tree_nodes").begin_array();
      for (const CompTree& t : forests_[k]) w.value(static_cast<int64_t>(t.nodes.size()));
      w.end_array();
      w.end_object();
    }
    w.end_array();
    w.end_object();
    return w.str();
  }

 private:
  std::string name_;
  int n_classes_;
};

class CompRfLearner : public Learner {
 public:
  explicit CompRfLearner(CompParams p) : name_(p.name), p_(std::move(p)) {}
  std::unique_ptr<Model> fit(const Dataset& data, std::span<const uint32_t> rows, FitContext& ctx) const override {
    require(data.task() == TaskKind::kClassification, name_, ": classification only");
    const int C = static_cast<int>(data.n_classes());
    auto model = std::make_unique<CompRfModel>(name_, C);
    std::vector<double> sign(data.n_rows(), 0.0);
    const bool ints = small_int_max(data, rows) >= 0;
    std::optional<RowMajor<int8_t>> Xi;
    std::optional<RowMajor<double>> Xd;
    if (ints) Xi.emplace(data, rows, true);
    else Xd.emplace(data, rows, true);
    for (int a = 0; a < C; ++a)
      for (int b = a + 1; b < C; ++b) {
        std::vector<uint32_t> pair_rows;
        for (uint32_t r : rows) {
          const int y = data.label(r);
          if (y == a || y == b) {
            pair_rows.push_back(r);
            sign[r] = y == b ? 1.0 : -1.0;
          }
        }
        model->pairs_.emplace_back(a, b);
        auto& forest = model->forests_.emplace_back();
        Rng pair_rng = ctx.rng.derive("pair").derive(static_cast<uint64_t>(a), static_cast<uint64_t>(b));
        for (int t = 0; t < p_.n_trees; ++t)
          forest.push_back(ints ? grow(*Xi, pair_rows, sign, p_, pair_rng.derive(static_cast<uint64_t>(t)))
                                : grow(*Xd, pair_rows, sign, p_, pair_rng.derive(static_cast<uint64_t>(t))));
      }
    model->index_integers();
    return model;
  }

 private:
  std::string name_;
  CompParams p_;
};

}  // namespace

std::vector<AlgorithmInfo> comprf_algorithms() {
  using P = CompParams;
  const ParamSet<P> set =  // both variants take the same parameters
      ParamSet<P>()
          .add(&P::n_trees, param::n_trees(100, "trees per binary forest"))
          .add(&P::n0, param::count("n0", 5, 1, 1e9, "a node with <= n0 points is a leaf (MRF's minimum leaf size 5)"));
  return {with_learner<CompRfLearner>(
              describe_non_private("comprf-c", "multinomial-rf", kClassificationTask,
                                   "Comparison-based RF with unsupervised pivots (Haghiri et al. 2018; multinomial-rf.md "
                                   "§2.4), one-vs-one for multiclass"),
              set, CompParams{.name = "comprf-c"}),
          with_learner<CompRfLearner>(
              describe_non_private("comprf-i", "multinomial-rf", kClassificationTask,
                                   "Comparison-based RF with supervised pivots of different labels (Haghiri et al. "
                                   "2018), one-vs-one"),
              set, CompParams{.name = "comprf-i", .supervised = true})};
}

std::unique_ptr<Model> load_comprf_model(const JsonIn& in, const Schema& schema) {
  const auto C = static_cast<int>(in["n_classes"].integer(1, 1 << 16));
  if (static_cast<std::size_t>(C) != schema.target.n_classes()) in["n_classes"].fail_here("does not match the schema");
  auto model = std::make_unique<CompRfModel>(in["algorithm"].string(), C);
  const JsonIn pairs = in["pairs"];
  const auto D = static_cast<int64_t>(schema.n_features());
  for (std::size_t k = 0; k < pairs.size(); ++k) {
    const JsonIn p = pairs.at(k);
    model->pairs_.emplace_back(static_cast<int>(p["a"].integer(0, C - 1)), static_cast<int>(p["b"].integer(0, C - 1)));
    auto& forest = model->forests_.emplace_back();
    const JsonIn trees = p["trees"];
    for (std::size_t i = 0; i < trees.size(); ++i) {
      const JsonIn t = trees.at(i);
      CompTree& tree = forest.emplace_back();
      tree.D = static_cast<std::size_t>(D);
      const std::vector<int64_t> left = t["left"].integers(-1, 1 << 30);
      const std::vector<int64_t> nnz = t["nnz"].integers(0, D);
      const std::vector<int64_t> offset = t["w"].integers(0, 1 << 30);
      const std::vector<double> b = t["b"].numbers(), label_sum = t["label_sum"].numbers(), count = t["count"].numbers();
      tree.W = t["W"].numbers();
      for (int64_t f : t["F"].integers(0, D - 1)) tree.F.push_back(static_cast<uint32_t>(f));
      if (tree.F.size() != tree.W.size()) t.fail_here("W and F differ in length");
      std::size_t split = 0, leaf = 0;
      const auto n = static_cast<int64_t>(left.size());
      if (n == 0) t.fail_here("a tree has no node");
      for (int64_t j = 0; j < n; ++j) {
        CompNode& node = tree.nodes.emplace_back();
        node.left = static_cast<int32_t>(left[static_cast<std::size_t>(j)]);
        if (node.left < 0) {
          if (leaf >= count.size() || leaf >= label_sum.size()) t.fail_here("leaf arrays end before node " + std::to_string(j));
          node.label_sum = label_sum[leaf];
          node.count = count[leaf++];
          continue;
        }
        // Children after their parent, inside the tree, so routing ends at a leaf.
        if (node.left <= j || node.left + 1 >= n) t.fail_here("node " + std::to_string(j) + ": children outside the tree");
        if (split >= nnz.size() || split >= b.size() || split >= offset.size())
          t.fail_here("split arrays end before node " + std::to_string(j));
        node.nnz = static_cast<int32_t>(nnz[split]);
        node.w = static_cast<int32_t>(offset[split]);
        node.b = b[split++];
        if (static_cast<std::size_t>(node.w) + static_cast<std::size_t>(node.nnz) > tree.W.size())
          t.fail_here("node " + std::to_string(j) + ": its entries run past the end of W");
      }
      if (split != b.size() || leaf != count.size())
        t.fail_here("the node arrays hold more entries than the nodes use");
    }
  }
  model->index_integers();
  return model;
}

}  // namespace dpf
