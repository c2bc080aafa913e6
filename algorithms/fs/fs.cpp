#include "algorithms/fs/fs.hpp"

#include "algorithms/common/forest_fit.hpp"
#include "algorithms/common/fs_split.hpp"
#include "algorithms/common/leaves.hpp"
#include "algorithms/common/param_set.hpp"
#include "algorithms/common/shared_params.hpp"
#include "core/privacy/mechanisms.hpp"

namespace dpf {

namespace {

struct FsParams {
  double epsilon = 1;
  int max_depth = 5;
};

class FsLearner : public Learner {
 public:
  explicit FsLearner(const FsParams& p) : epsilon_(p.epsilon), depth_(p.max_depth) { check_epsilon_param("fs", epsilon_); }
  std::unique_ptr<Model> fit(const Dataset& data, std::span<const uint32_t> rows, FitContext& ctx) const override {
    const double eps_op = fs_operation_epsilon(epsilon_, depth_, data.schema());
    const int k = static_cast<int>(data.n_classes());
    std::unique_ptr<SplitPolicy> split = make_fs_split(eps_op, k, true);
    ClassCountLeaf leaf(k, eps_op, true);  // noisy class counts n_c + Lap(1/eps') (§2.2 step 3)
    ForestFitSpec spec;
    spec.algorithm = "fs";
    spec.n_trees = 1;
    spec.max_depth = depth_;
    spec.rows = TreeRows::kAll;
    spec.epsilon = epsilon_;
    spec.vote = Vote::kSoft;
    return fit_forest(data, rows, ctx, spec, *split, leaf);
  }

 private:
  double epsilon_;
  int depth_;
};

}  // namespace

std::vector<AlgorithmInfo> fs_algorithms() {
  AlgorithmInfo a = describe("fs", "smooth-rdf", kClassificationTask,
                             "FS: Friedman & Schuster 2010 DiffP-C4.5 with continuous attributes (max scorer, one "
                             "tree, depth 5), as Fletcher & Islam ran it; no pruning");
  a.privacy_status = [](const Params&, TaskKind) -> std::string { return kPureDpLabel; };
  using P = FsParams;
  return {with_learner<FsLearner>(a, ParamSet<P>()
                                         .add(&P::epsilon, param::epsilon("total privacy budget"))
                                         .add(&P::max_depth, param::max_depth(5, "D (Fletcher & Islam §5.2: 5)", 1, 30))
                                         .declare(param::strict()))};  // FS is epsilon-DP as published: no repair
}

}  // namespace dpf
