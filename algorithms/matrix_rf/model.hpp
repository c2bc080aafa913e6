// The fitted matrix random forest (see matrix_rf.hpp for how the methods map onto Model).
#pragma once
#include <string>
#include <utility>
#include <vector>

#include "algorithms/matrix_rf/matrix_rf.hpp"

namespace dpf::mrf {

// Strategy diagnostics recorded in every result row (matrix-rf.md §3.7, §4.6).
struct StrategyReport {
  std::string templates;     // per ensemble, '|'-separated: Kronecker codes ("IIIIII") or "I"/"P<p>"
  double loss = 0.0;         // Σ over ensembles of ||A||₁²·||WA⁺||_F²
  double identity_loss = 0.0;
  double expected_error = 0.0;  // Σ over ensembles of 2·scale²·loss (per class column, Thm. 4/6)
  double optimise_seconds = 0.0;
  void add(const std::string& t, double l, double id, double scale);
};

struct EnsembleFit {
  Ensemble e;
  // o × k: the released noisy leaf counts (training methods), the true counts (batch prediction),
  // or the disjoint per-tree counts (subsample methods).
  Eigen::MatrixXd counts;
};

class MrfModel : public Model {
 public:
  MrfModel(MrfParams p, Discretiser disc, int n_classes, Rng noise)
      : p_(std::move(p)), disc_(std::move(disc)), k_(n_classes), noise_(noise) {}

  Predictions predict(const Dataset& data, std::span<const uint32_t> rows) const override;
  ModelStats stats() const override;
  std::string describe() const override;
  std::vector<std::pair<std::string, std::string>> extra_columns() const override;
  const PrivacyLedger* release_ledger() const override { return released_ ? &release_ : nullptr; }
  // Training methods: every ensemble's released noisy leaf-count matrix (the trees are public: drawn from
  // the seed over public cut-offs). Prediction methods release in predict() and throw, saying so.
  Release released() const override;
  // Training methods and the non-private trees: the discretiser, every ensemble's trees (public:
  // drawn over public cut-offs) and its released noisy leaf counts (model_io.cpp). Prediction methods
  // refuse: their fitted model holds the exact leaf counts, and the release happens in predict().
  void save(JsonWriter& w) const override;

  std::vector<EnsembleFit> ensembles;
  StrategyReport report;
  double build_seconds = 0.0, train_seconds = 0.0;
  double fit_epsilon = 0.0;  // composed by the fit ledger (training methods)

 private:
  // The private batch release of the prediction methods: per-ensemble noisy votes (b × k), noise
  // from `rng`, charged to `ledger` (the ledger of this one release).
  Eigen::MatrixXd release_votes(std::size_t i, const std::vector<uint32_t>& qleaf, std::size_t b, Rng rng,
                                PrivacyLedger& ledger) const;
  // Noisy votes (rows × k) of the prediction methods: one release of all rows, or (query_batch = b > 0)
  // ⌈rows/b⌉ independent releases of b queries each.
  Eigen::MatrixXd release_all(const std::vector<int>& codes, std::size_t n_rows) const;

  MrfParams p_;
  Discretiser disc_;
  int k_;
  Rng noise_;
  mutable PrivacyLedger release_;  // the (last) release's ledger
  mutable bool released_ = false;
  mutable std::size_t n_releases_ = 0;
  mutable StrategyReport predict_report_;
};

// Laplace noise matrix, rows × k, i.i.d. Lap(scale).
Eigen::MatrixXd laplace_matrix(Eigen::Index rows, Eigen::Index k, double scale, Rng& rng);
// Index of the first maximum (numpy argmax; ties and all-zero rows → lowest class, spec §2.2).
int argmax_row(const Eigen::MatrixXd& m, Eigen::Index row);

}  // namespace dpf::mrf
