// Fitting matrix random forests: ensembles over random feature subsets (Alg. 3 lines 1–4), leaf
// counts (UPDATELEAVES, spec §2.2, all rows or disjoint parts), and the training-time releases.
#include <chrono>
#include <numeric>
#include <sstream>

#include "algorithms/matrix_rf/model.hpp"
#include "core/util/error.hpp"

namespace dpf::mrf {

using Eigen::MatrixXd;

bool is_prediction_release(Method m) {
  return m == Method::kPredict || m == Method::kSubsample || m == Method::kSubsampleLM;
}

bool is_disjoint(Method m) {
  return m == Method::kDisjointLM || m == Method::kSubsample || m == Method::kSubsampleLM;
}

MrfParams resolve_for_dataset(const MrfParams& p, const std::string& dataset) {
  MrfParams out = p;
  const std::string& s = p.per_dataset;
  std::size_t pos = 0;
  auto trim = [](std::string t) {
    t.erase(0, t.find_first_not_of(" \t\n"));
    t.erase(t.find_last_not_of(" \t\n") + 1);
    return t;
  };
  while (pos < s.size()) {
    const std::size_t open = s.find('{', pos);
    if (open == std::string::npos) {
      require(trim(s.substr(pos)).empty(), "matrix-rf: parameter per_dataset: expected name{...} at '", s.substr(pos), "'");
      break;
    }
    const std::size_t close = s.find('}', open);
    require(close != std::string::npos, "matrix-rf: parameter per_dataset: missing '}' after '", s.substr(pos), "'");
    const std::string name = trim(s.substr(pos, open - pos));
    require(!name.empty(), "matrix-rf: parameter per_dataset: an entry has no dataset name");
    std::stringstream body(s.substr(open + 1, close - open - 1));
    std::string kv;
    while (std::getline(body, kv, ',')) {
      if (trim(kv).empty()) continue;
      const std::size_t eq = kv.find('=');
      require(eq != std::string::npos, "matrix-rf: parameter per_dataset: '", kv, "' in ", name, "{...} is not key=value");
      const std::string key = trim(kv.substr(0, eq)), value = trim(kv.substr(eq + 1));
      const bool apply = name == dataset;
      auto as_int = [&](int lo) {
        int v = 0;
        try { v = std::stoi(value); } catch (const std::exception&) { v = lo - 1; }
        require(v >= lo, "matrix-rf: parameter per_dataset: ", name, "{", key, "=", value, "} must be an integer >= ", lo);
        return v;
      };
      if (key == "n_trees") { int v = as_int(1); if (apply) out.n_trees = v; }
      else if (key == "max_depth") { int v = as_int(0); if (apply) out.max_depth = v; }
      else if (key == "n_ensembles") { int v = as_int(1); if (apply) out.n_ensembles = v; }
      else if (key == "ensemble_features") { int v = as_int(0); if (apply) out.ensemble_features = v; }
      else if (key == "p") { int v = as_int(1); if (apply) out.p = v; }
      else if (key == "cutoffs") { if (apply) out.cutoffs = value; }
      else fail("matrix-rf: parameter per_dataset: unknown key '", key, "' in ", name,
                "{...} (known: n_trees, max_depth, n_ensembles, ensemble_features, cutoffs, p)");
    }
    pos = close + 1;
  }
  return out;
}

namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

class MrfLearner : public Learner {
 public:
  explicit MrfLearner(MrfParams p) : base_(std::move(p)) {}

  std::unique_ptr<Model> fit(const Dataset& data, std::span<const uint32_t> rows, FitContext& ctx) const override {
    p_ = resolve_for_dataset(base_, data.name());
    require(data.task() == TaskKind::kClassification, "matrix-rf: ", p_.name, " is a classifier");
    Discretiser disc(data.schema(), p_.cutoffs);
    const int k = static_cast<int>(data.n_classes());
    auto model = std::make_unique<MrfModel>(p_, disc, k, ctx.rng.derive("noise"));
    const std::size_t nf = disc.n_features(), n = rows.size();
    const std::vector<int> codes = disc.encode(data, rows);
    const int q = p_.n_ensembles;
    const int dbar = p_.ensemble_features == 0 ? static_cast<int>(nf) : std::min<int>(p_.ensemble_features, static_cast<int>(nf));
    const int tau = p_.n_trees / q;  // τ_i = ⌊τ/q⌋ (spec §2.4)
    require(tau >= 1, "matrix-rf: ", p_.name, ": n_trees (", p_.n_trees, ") must be at least n_ensembles (", q, ")");

    auto t0 = std::chrono::steady_clock::now();
    Rng structure = ctx.rng.derive("structure");
    for (int i = 0; i < q; ++i) {
      // Alg. 3 line 2: d̄ features without replacement, random order (all features in order when
      // q = 1 and d̄ = d, as the authors' single-ensemble runs).
      std::vector<int> feats(nf);
      std::iota(feats.begin(), feats.end(), 0);
      if (!(q == 1 && dbar == static_cast<int>(nf))) {
        Rng fr = structure.derive("features").derive(static_cast<uint64_t>(i));
        fr.shuffle(std::span<int>(feats));
        feats.resize(static_cast<std::size_t>(dbar));
      }
      std::vector<int> sizes;
      for (int f : feats) sizes.push_back(disc.size(static_cast<std::size_t>(f)));
      Rng tr = structure.derive("trees").derive(static_cast<uint64_t>(i));
      model->ensembles.push_back({build_ensemble(feats, sizes, tau, p_.max_depth, tr), MatrixXd()});
    }
    model->build_seconds = seconds_since(t0);

    t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < q; ++i) fit_counts(model->ensembles[static_cast<std::size_t>(i)], codes, data, rows, nf, k,
                                           ctx.rng.derive("split").derive(static_cast<uint64_t>(i)));
    (void)n;
    if (!is_prediction_release(p_.method) && p_.method != Method::kTrees) {
      for (int i = 0; i < q; ++i) release_counts(*model, static_cast<std::size_t>(i), ctx);
      ctx.ledger.check_within(p_.epsilon, p_.name);
    }
    model->train_seconds = seconds_since(t0) - model->report.optimise_seconds;
    return model;
  }

 private:
  // UPDATELEAVES (spec §2.2): C[leaf, y] += 1 per record and tree; disjoint methods first shuffle
  // the rows and give tree t the t-th of τ_i near-equal parts (numpy array_split, spec §3.4).
  void fit_counts(EnsembleFit& ef, const std::vector<int>& codes, const Dataset& data, std::span<const uint32_t> rows,
                  std::size_t nf, int k, Rng split) const {
    const std::size_t n = rows.size(), tau = ef.e.trees.size();
    ef.counts = MatrixXd::Zero(ef.e.n_leaves, k);
    std::vector<uint32_t> order(n);
    std::iota(order.begin(), order.end(), 0u);
    if (is_disjoint(p_.method)) split.shuffle(std::span<uint32_t>(order));
    const std::size_t d = ef.e.d();
    std::vector<int> local(n * d);  // projected codes of every row, once per ensemble
    for (std::size_t r = 0; r < n; ++r) ef.e.project(codes.data() + r * nf, local.data() + r * d);
    std::vector<int> label(n);
    for (std::size_t r = 0; r < n; ++r) label[r] = data.label(rows[r]);
    if (is_disjoint(p_.method) && p_.strict) {
      // Strict: every row to one tree uniformly at random, independently of the other rows, so an added
      // row changes one tree's counts by one and leaves every other row where it was (parallel
      // composition over trees holds; the array_split below moves rows between trees).
      for (std::size_t r = 0; r < n; ++r) {
        const auto t = static_cast<std::size_t>(split.below(tau));
        const int leaf = ef.e.leaf_offset[t] + ef.e.trees[t].leaf(local.data() + r * d);
        ef.counts(leaf, label[r]) += 1;
      }
      return;
    }
    for (std::size_t t = 0; t < tau; ++t) {
      std::size_t lo = 0, hi = n;
      if (is_disjoint(p_.method)) {
        const std::size_t base = n / tau, extra = n % tau;
        lo = t * base + std::min(t, extra);
        hi = lo + base + (t < extra ? 1 : 0);
      }
      for (std::size_t j = lo; j < hi; ++j) {
        const uint32_t r = order[j];
        const int leaf = ef.e.leaf_offset[t] + ef.e.trees[t].leaf(local.data() + static_cast<std::size_t>(r) * d);
        ef.counts(leaf, label[r]) += 1;
      }
    }
  }

  void release_counts(MrfModel& model, std::size_t i, FitContext& ctx) const {
    EnsembleFit& ef = model.ensembles[i];
    const double q = p_.n_ensembles;
    const double eps_i = p_.epsilon / q;  // Alg. 3: sequential composition over the q ensembles
    const auto k = ef.counts.cols();
    Rng rng = ctx.rng.derive("noise-train").derive(static_cast<uint64_t>(i));
    const auto o = static_cast<double>(ef.e.n_leaves);
    const double tau = static_cast<double>(ef.e.trees.size());
    if (p_.method == Method::kTrainLM) {
      // "DP batch train – LM" ([P] §Experiments, spec §3.5): a record is in τ_i leaves, so C = TD has
      // L1 sensitivity τ_i; Lap(q·τ_i/ε) on every leaf count.
      const double scale = tau / eps_i;
      ctx.ledger.charge(PrivacyLedger::kRoot, "laplace-leaf-counts (batch train LM)", eps_i, tau);
      ef.counts += laplace_matrix(ef.e.n_leaves, k, scale, rng);
      model.report.add("none", 0.0, 0.0, 0.0);
      model.report.expected_error += 2.0 * scale * scale * o;
      return;
    }
    if (p_.method == Method::kDisjointLM) {
      // "DP disj. train – LM" (spec §3.5): each record is in one tree's part, sensitivity 1.
      const double scale = 1.0 / eps_i;
      ctx.ledger.charge(PrivacyLedger::kRoot, "laplace-leaf-counts (disjoint LM)", eps_i, 1.0);
      ef.counts += laplace_matrix(ef.e.n_leaves, k, scale, rng);
      model.report.add("none", 0.0, 0.0, 0.0);
      model.report.expected_error += 2.0 * scale * scale * o;
      return;
    }
    // DP batch training, Alg. 1: A ← OPT(T) (line 1); C̃ = TD + T·A⁺·Z, Z ~ Lap(q·||A||₁/ε)^{m×k}
    // (line 2, printed TAᵀ in the paper, a typo: spec §0.3). ||A||₁ = 1 for every template here.
    auto t0 = std::chrono::steady_clock::now();
    DomainMap m = map_domain(ef.e, p_.domain_limit);
    const double identity_loss = tau * static_cast<double>(m.n);  // each tree partitions X (§1.4)
    const double scale = 1.0 / eps_i;
    MatrixXd y;
    if (p_.strategy == "identity") {
      model.report.optimise_seconds += seconds_since(t0);
      model.report.add(std::string(ef.e.d(), 'I'), identity_loss, identity_loss, scale);
      ctx.ledger.charge(PrivacyLedger::kRoot, "matrix-mechanism laplace on D (batch training, Alg. 1 line 2)", eps_i, 1.0);
      y = laplace_matrix(static_cast<Eigen::Index>(m.n), k, scale, rng);
    } else if (p_.strategy == "hdmm") {
      Rng opt = rng.derive("opt");
      KronStrategy ks = optimise_kron(ef.e.workload(), p_.p, opt, 10, p_.start);  // §4.4 OPT⊗
      model.report.optimise_seconds += seconds_since(t0);
      model.report.add(ks.templates(), ks.loss, identity_loss, scale);
      Eigen::Index rows = 1;
      for (const auto& f : ks.factors) rows *= f.rows();
      const bool all_identity = ks.templates() == std::string(ef.e.d(), 'I');
      ctx.ledger.charge(PrivacyLedger::kRoot, "matrix-mechanism laplace on A·D (batch training, Alg. 1 line 2)", eps_i, 1.0,
                        /*certified=*/all_identity);
      y = ks.apply_pinv(laplace_matrix(rows, k, scale, rng));
    } else {
      // hdmm-full: one p-Identity over the whole ensemble domain on G = TᵀT (investigation, §4.5).
      Rng opt = rng.derive("opt");
      Factor a = best_template(gram_training(m), p_.p, INFINITY, opt, true, p_.start);
      model.report.optimise_seconds += seconds_since(t0);
      model.report.add(a.kind == Template::kIdentity ? "I" : "P" + std::to_string(p_.p), a.loss, identity_loss, scale);
      ctx.ledger.charge(PrivacyLedger::kRoot, "matrix-mechanism laplace on A·D (batch training, Alg. 1 line 2)", eps_i, 1.0,
                        /*certified=*/a.kind == Template::kIdentity);
      y = a.apply_pinv(laplace_matrix(a.rows(), k, scale, rng));
    }
    ef.counts += leaf_sums(m, y);  // T·A⁺·Z
  }

  MrfParams base_;
  mutable MrfParams p_;  // base_ with the dataset's per_dataset entry (set at the start of fit)
};

}  // namespace

std::unique_ptr<Learner> make_learner(const MrfParams& p) { return std::make_unique<MrfLearner>(p); }

}  // namespace dpf::mrf
