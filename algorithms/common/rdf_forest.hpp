// Fitting and predicting a forest of data-independent random trees (random_tree.hpp) whose only
// contact with the data is one pass of leaf counting: the smooth-sensitivity forest of Fletcher &
// Islam (2017) and its variants, and JPW (Jagannathan et al. 2009/2012) as Fletcher & Islam ran it.
#pragma once
#include <limits>
#include <memory>
#include <string>

#include "algorithms/common/leaf_label.hpp"
#include "algorithms/common/random_tree.hpp"
#include "core/tree/model.hpp"
#include "core/util/json_read.hpp"

namespace dpf {

enum class RdfRelease {
  kLabel,        // one label per non-empty leaf by `mechanism`; empty leaves uniform (§1.6); majority vote
  kJpwCoded,     // JPW as the authors coded it: argmax of max(0, trunc(n_c + Lap(tau/eps))) (§2.1 v1)
  kJpwOriginal,  // JPW original: Lap(tau/eps) on every count of every leaf, noisy counts summed over trees (§2.1 v2)
};

struct RdfSpec {
  std::string algorithm;
  int n_trees = 100;
  int depth = 1;
  bool disjoint = true;               // §1.5: disjoint equal-size subsets, full epsilon per tree
  bool random_assignment = false;     // with disjoint: each row to a uniformly random tree instead of equal
                                      // chunks of a shuffled order (strict: an added row moves no other row)
  bool domains_from_training = true;  // §1.2: the authors' code takes domains from the training data
  bool classes_from_training = true;  // §1.6: C = the labels present in the training rows (authors' code);
                                      // false: the schema's public class list (a private release needs it)
  bool random_ties = false;           // kJpwCoded: ties uniformly at random and empty leaves through the
                                      // same noisy argmax (strict); false: the authors' rules
  double epsilon_total = std::numeric_limits<double>::quiet_NaN();  // the ledger bound when a learner
                                      // charged more than `epsilon` before fit_rdf (a noisy n); NaN: epsilon
  double epsilon = std::numeric_limits<double>::infinity();  // infinity: non-private
  RdfRelease release = RdfRelease::kLabel;
  LeafMechanism mechanism = LeafMechanism::kSmooth;
  bool certified = true;              // whether the ledger charge is a guarantee (privacy.md §6.1)
};

std::unique_ptr<Model> fit_rdf(const Dataset& data, std::span<const uint32_t> rows, FitContext& ctx, const RdfSpec& spec);

// Diagnostics of a fitted forest (smooth-rdf.md §1.6 "Diagnostics the paper reports").
struct RdfDiagnostics {
  double empty_leaf_fraction = 0.0;  // mean over trees of empty leaves / all leaves (Table 3)
  double flipped_fraction = 0.0;     // mean over trees of non-empty leaves whose label != true majority (Fig. 8)
  double mean_smooth_sensitivity = 0.0;  // mean over trees of mean e^(-j eps) over non-empty leaves (Fig. 5b)
  double total_leaves = 0.0;
  int depth = 0;
};
// nullptr when the model is not an RDF forest.
const RdfDiagnostics* rdf_diagnostics(const Model& model);

// The most leaves (over all trees) a saved RDF forest may hold: it is written in full (RdfModel::save).
inline constexpr double kMaxSavedRdfLeaves = 2097152.0;  // 2^21, about 50 MB of JSON
// A forest written by RdfModel::save (rdf_saved.cpp), checked against the schema it predicts on.
std::unique_ptr<Model> load_rdf_model(const JsonIn& in, const Schema& schema);

}  // namespace dpf
