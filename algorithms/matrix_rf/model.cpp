#include "algorithms/matrix_rf/model.hpp"

#include <algorithm>
#include <chrono>
#include <numeric>
#include <sstream>

#include "core/privacy/mechanisms.hpp"
#include "core/util/error.hpp"

namespace dpf::mrf {

using Eigen::MatrixXd;

void StrategyReport::add(const std::string& t, double l, double id, double scale) {
  templates += (templates.empty() ? "" : "|") + t;
  loss += l;
  identity_loss += id;
  expected_error += 2.0 * scale * scale * l;  // Var Lap(s) = 2s² per unit of ||WA⁺||_F² (§3.1, §4.6)
}

MatrixXd laplace_matrix(Eigen::Index rows, Eigen::Index k, double scale, Rng& rng) {
  MatrixXd z(rows, k);
  for (Eigen::Index c = 0; c < k; ++c)
    for (Eigen::Index r = 0; r < rows; ++r) z(r, c) = sample_laplace(rng, scale);
  return z;
}

int argmax_row(const MatrixXd& m, Eigen::Index row) {
  int best = 0;
  for (Eigen::Index c = 1; c < m.cols(); ++c)
    if (m(row, c) > m(row, best)) best = static_cast<int>(c);
  return best;
}

namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// Hard leaf labels: one-hot of the argmax of every leaf row (spec §3.4 hard voting; empty leaf → 0).
MatrixXd one_hot_labels(const MatrixXd& c) {
  MatrixXd l = MatrixXd::Zero(c.rows(), c.cols());
  for (Eigen::Index r = 0; r < c.rows(); ++r) l(r, argmax_row(c, r)) = 1.0;
  return l;
}

// Σ_t U[leaf_t(s_i)] for every query: QTᵀ·U.
MatrixXd votes_of(const MatrixXd& u, const std::vector<uint32_t>& qleaf, std::size_t b, std::size_t tau) {
  MatrixXd v = MatrixXd::Zero(static_cast<Eigen::Index>(b), u.cols());
  for (std::size_t i = 0; i < b; ++i)
    for (std::size_t t = 0; t < tau; ++t) v.row(static_cast<Eigen::Index>(i)) += u.row(qleaf[i * tau + t]);
  return v;
}

}  // namespace

MatrixXd MrfModel::release_votes(std::size_t i, const std::vector<uint32_t>& qleaf, std::size_t b, Rng rng,
                                 PrivacyLedger& ledger) const {
  const EnsembleFit& ef = ensembles[i];
  const std::size_t tau = ef.e.trees.size();
  const double q = static_cast<double>(ensembles.size());
  const bool identity = p_.strategy == "identity";
  auto t0 = std::chrono::steady_clock::now();

  if (p_.method == Method::kSubsampleLM) {
    // Standard subsample-and-aggregate ([P] baseline, spec §3.5): budget ε/q per ensemble split as
    // ε/(qb) per query; one record changes one leaf of one disjoint tree, i.e. each query's votes
    // by 1 (weight) or 2 (hard, a flipped label) in L1, so the b × k release has sensitivity b·Δ.
    const double sens = p_.weight_vote ? 1.0 : 2.0;
    const MatrixXd base = p_.weight_vote ? ef.counts : one_hot_labels(ef.counts);
    const double scale = q * static_cast<double>(b) * sens / p_.epsilon;
    ledger.charge(PrivacyLedger::kRoot, "laplace-votes (subsample-and-aggregate, per query eps/b)", p_.epsilon / q,
                    static_cast<double>(b) * sens);
    predict_report_.add("none", 0.0, 0.0, 0.0);
    predict_report_.expected_error += 2.0 * scale * scale * static_cast<double>(b);
    return votes_of(base, qleaf, b, tau) + laplace_matrix(static_cast<Eigen::Index>(b), k_, scale, rng);
  }

  if (p_.method == Method::kSubsample) {
    // Optimised subsample-and-aggregate ([A] Alg. 2, Defs. 5 and 8): W = QTᵀ over the o leaves of the
    // disjoint forest; sensitivity 1 (weight: one leaf count) or 2 (hard: one leaf label flips).
    const double sens = p_.weight_vote ? 1.0 : 2.0;
    const MatrixXd base = p_.weight_vote ? ef.counts : one_hot_labels(ef.counts);
    GramOperator g = gram_subsample(ef.e.n_leaves, static_cast<int>(tau), qleaf);
    Factor a;
    a.n = g.n;
    a.loss = g.diag.sum();
    if (!identity) a = best_template(g, p_.p, INFINITY, rng, true, p_.start);
    predict_report_.optimise_seconds += seconds_since(t0);
    const double scale = q * sens / p_.epsilon;  // Lap(q·Δ·||A||₁/ε), ||A||₁ = 1
    predict_report_.add(a.kind == Template::kIdentity ? "I" : "P" + std::to_string(p_.p), a.loss, g.diag.sum(), scale);
    ledger.charge(PrivacyLedger::kRoot, "matrix-mechanism laplace on A·C (subsample, [A] Alg. 2)", p_.epsilon / q,
                    sens, /*certified=*/identity);
    const MatrixXd y = a.apply_pinv(laplace_matrix(a.rows(), k_, scale, rng));  // A⁺Z (o × k)
    return votes_of(base + y, qleaf, b, tau);                                     // QTᵀ(C + A⁺Z)
  }

  // DP batch prediction (Alg. 2): W = QTᵀT over the ensemble's domain, A ← OPT(W) (line 2), noisy
  // votes QTᵀTD + W·A⁺·Z, Z ~ Lap(q·||A||₁/ε) (line 3; Thm. 5: sensitivity ||A||₁ = 1).
  DomainMap m = map_domain(ef.e, p_.domain_limit);
  GramOperator g = gram_prediction(m, qleaf);
  Factor a;
  a.n = g.n;
  a.loss = g.diag.sum();
  if (!identity) a = best_template(g, p_.p, INFINITY, rng, true, p_.start);
  predict_report_.optimise_seconds += seconds_since(t0);
  const double scale = q / p_.epsilon;
  predict_report_.add(a.kind == Template::kIdentity ? "I" : "P" + std::to_string(p_.p), a.loss, g.diag.sum(), scale);
  ledger.charge(PrivacyLedger::kRoot, "matrix-mechanism laplace on A·D (batch prediction, Alg. 2 line 3)",
                  p_.epsilon / q, 1.0, /*certified=*/identity);
  const MatrixXd y = a.apply_pinv(laplace_matrix(a.rows(), k_, scale, rng));  // A⁺Z (n × k)
  return votes_of(ef.counts + leaf_sums(m, y), qleaf, b, tau);                  // QTᵀ(TD + T·A⁺Z)
}

MatrixXd MrfModel::release_all(const std::vector<int>& codes, std::size_t n_rows) const {
  const std::size_t nf = disc_.n_features();
  MatrixXd votes = MatrixXd::Zero(static_cast<Eigen::Index>(n_rows), k_);
  auto one_release = [&](const std::vector<std::size_t>& batch, std::size_t answered, Rng noise) {
    // One private release for the b queries of `batch` (Alg. 2 / [A] Alg. 2 with Q = these rows);
    // the first `answered` of them are the rows it answers.
    const std::size_t b = batch.size();
    std::vector<int> bcodes(b * nf);
    for (std::size_t j = 0; j < b; ++j)
      std::copy_n(codes.begin() + static_cast<std::ptrdiff_t>(batch[j] * nf), nf, bcodes.begin() + static_cast<std::ptrdiff_t>(j * nf));
    PrivacyLedger ledger;
    MatrixXd v = MatrixXd::Zero(static_cast<Eigen::Index>(b), k_);
    for (std::size_t i = 0; i < ensembles.size(); ++i)
      v += release_votes(i, query_leaves(ensembles[i].e, bcodes, b), b, noise.derive(static_cast<uint64_t>(i)), ledger);  // Alg. 3 line 11
    ledger.check_within(p_.epsilon, p_.name);
    for (std::size_t j = 0; j < answered; ++j) votes.row(static_cast<Eigen::Index>(batch[j])) = v.row(static_cast<Eigen::Index>(j));
    release_ = ledger;
    ++n_releases_;
  };
  const std::size_t b = static_cast<std::size_t>(p_.query_batch);
  if (b == 0) {
    std::vector<std::size_t> all(n_rows);
    std::iota(all.begin(), all.end(), std::size_t{0});
    one_release(all, n_rows, noise_);
    return votes;
  }
  // Fig. 3b / App. Fig. 4 (spec §5.2): accuracy of a release of b queries drawn without replacement.
  // The rows, in random order, are cut into ⌈N/b⌉ batches, each an independent release with its own
  // noise and its own budget ε (Monte-Carlo replicates of one release, not one analyst's queries); a
  // short last batch is topped up with rows of the first batch so that every release has exactly b
  // queries (the noise scale of the per-query-budget baseline depends on b); only its own rows are
  // answered from it.
  require(b <= n_rows, "matrix-rf: ", p_.name, ": query_batch (", b, ") exceeds the ", n_rows, " rows to predict");
  std::vector<std::size_t> order(n_rows);
  std::iota(order.begin(), order.end(), std::size_t{0});
  Rng perm = noise_.derive("query-batches");
  perm.shuffle(std::span<std::size_t>(order));
  for (std::size_t start = 0, j = 0; start < n_rows; start += b, ++j) {
    const std::size_t answered = std::min(b, n_rows - start);
    std::vector<std::size_t> batch(order.begin() + static_cast<std::ptrdiff_t>(start),
                                   order.begin() + static_cast<std::ptrdiff_t>(start + answered));
    for (std::size_t f = 0; batch.size() < b; ++f) batch.push_back(order[f]);
    one_release(batch, answered, noise_.derive("query-batch").derive(static_cast<uint64_t>(j)));
  }
  // Strategy diagnostics as means per release.
  const double r = static_cast<double>(n_releases_);
  predict_report_.loss /= r;
  predict_report_.identity_loss /= r;
  predict_report_.expected_error /= r;
  return votes;
}

Predictions MrfModel::predict(const Dataset& data, std::span<const uint32_t> rows) const {
  const std::size_t b = rows.size();
  std::vector<int> codes = disc_.encode(data, rows);
  MatrixXd votes = MatrixXd::Zero(static_cast<Eigen::Index>(b), k_);
  if (is_prediction_release(p_.method)) {
    require(!released_, "matrix-rf: ", p_.name,
            " releases one private batch per model; predict() was already called (budget spent)");
    released_ = true;
    votes = release_all(codes, b);
  } else {
    // Training methods and the non-private trees: hard voting on the (noisy) leaf counts.
    for (const EnsembleFit& ef : ensembles) {
      std::vector<uint32_t> qleaf = query_leaves(ef.e, codes, b);
      const std::size_t tau = ef.e.trees.size();
      for (std::size_t r = 0; r < b; ++r)
        for (std::size_t t = 0; t < tau; ++t)
          votes(static_cast<Eigen::Index>(r), argmax_row(ef.counts, qleaf[r * tau + t])) += 1;
    }
  }
  Predictions out;
  out.task = TaskKind::kClassification;
  out.n_classes = k_;
  out.label.resize(b);
  out.value.resize(b * static_cast<std::size_t>(k_));
  for (std::size_t r = 0; r < b; ++r) {
    out.label[r] = argmax_row(votes, static_cast<Eigen::Index>(r));
    for (int c = 0; c < k_; ++c) out.value[r * static_cast<std::size_t>(k_) + static_cast<std::size_t>(c)] = votes(static_cast<Eigen::Index>(r), c);
  }
  return out;
}

Release MrfModel::released() const {
  if (is_prediction_release(p_.method))
    fail(p_.name, ": the private release happens in predict() (noisy votes for a batch of test queries), not in "
                  "the fitted model; audit it at the mechanism level");
  Release r;
  r.discrete.push_back(static_cast<int64_t>(ensembles.size()));
  for (const EnsembleFit& ef : ensembles) {
    r.discrete.push_back(ef.counts.rows());
    r.discrete.push_back(ef.counts.cols());
    for (Eigen::Index a = 0; a < ef.counts.rows(); ++a)
      for (Eigen::Index b = 0; b < ef.counts.cols(); ++b) r.continuous.push_back(ef.counts(a, b));
  }
  return r;
}

ModelStats MrfModel::stats() const {
  ModelStats s;
  std::size_t empty = 0;
  double depth = 0;
  for (const auto& ef : ensembles) {
    s.n_trees += ef.e.trees.size();
    s.n_leaves += static_cast<std::size_t>(ef.e.n_leaves);
    for (int l = 0; l < ef.e.n_leaves; ++l) {
      int tested = 0;
      for (std::size_t a = 0; a < ef.e.d(); ++a) tested += ef.e.leaf_codes[static_cast<std::size_t>(l) * ef.e.d() + a] >= 0;
      depth += tested;
    }
    if (is_prediction_release(p_.method))
      for (int l = 0; l < ef.e.n_leaves; ++l) empty += ef.counts.row(l).sum() == 0;
  }
  s.empty_leaf_fraction = s.n_leaves ? static_cast<double>(empty) / static_cast<double>(s.n_leaves) : 0.0;
  s.mean_depth = s.n_leaves ? depth / static_cast<double>(s.n_leaves) : 0.0;
  return s;
}

std::string MrfModel::describe() const {
  std::ostringstream os;
  os << "{\"algorithm\":\"" << p_.name << "\",\"strategy\":\"" << p_.strategy << "\",\"ensembles\":[";
  for (std::size_t i = 0; i < ensembles.size(); ++i) {
    const auto& e = ensembles[i].e;
    os << (i ? "," : "") << "{\"features\":[";
    for (std::size_t a = 0; a < e.features.size(); ++a) os << (a ? "," : "") << e.features[a];
    os << "],\"n_trees\":" << e.trees.size() << ",\"n_leaves\":" << e.n_leaves << ",\"leaf_counts\":[";
    for (Eigen::Index l = 0; l < ensembles[i].counts.rows(); ++l) {
      os << (l ? "," : "") << "[";
      for (Eigen::Index c = 0; c < ensembles[i].counts.cols(); ++c) os << (c ? "," : "") << ensembles[i].counts(l, c);
      os << "]";
    }
    os << "]}";
  }
  os << "],\"strategy_templates\":\"" << report.templates << "\",\"strategy_loss\":" << report.loss << "}";
  return os.str();
}

std::vector<std::pair<std::string, std::string>> MrfModel::extra_columns() const {
  const StrategyReport& r = is_prediction_release(p_.method) ? predict_report_ : report;
  auto num = [](double v) { std::ostringstream o; o.precision(10); o << v; return o.str(); };
  std::vector<std::pair<std::string, std::string>> c = {
      {"strategy_templates", r.templates}, {"strategy_loss", num(r.loss)},
      {"identity_loss", num(r.identity_loss)}, {"expected_error", num(r.expected_error)},
      {"optimise_seconds", num(r.optimise_seconds)}, {"build_seconds", num(build_seconds)},
      {"train_seconds", num(train_seconds)},
      // Effective hyper-parameters after per_dataset (they replace the configured columns).
      {"n_trees", std::to_string(p_.n_trees)}, {"max_depth", std::to_string(p_.max_depth)},
      {"n_ensembles", std::to_string(p_.n_ensembles)}, {"ensemble_features", std::to_string(p_.ensemble_features)}};
  if (p_.method == Method::kTrain || p_.method == Method::kPredict || p_.method == Method::kSubsample)
    c.emplace_back("p", std::to_string(p_.p));  // effective p (per_dataset may set it)
  if (is_prediction_release(p_.method) && released_) {
    // The batch release happened in predict(): its ledger is the one that spent the budget.
    c.emplace_back("epsilon_spent", num(release_.spent()));
    c.emplace_back("epsilon_spent_conservative", num(release_.spent_conservative()));
    c.emplace_back("ledger_certified", release_.certified() ? "true" : "false");
    c.emplace_back("query_releases", std::to_string(n_releases_));
  }
  return c;
}

}  // namespace dpf::mrf
