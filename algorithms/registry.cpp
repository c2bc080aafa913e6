// The one explicit algorithm table (design.md §4): every family is listed here, once, and nowhere
// else. To add an algorithm: write its policies, params struct and AlgorithmInfo entries in its own
// folder (depending on algorithms/common and core only), then add one line below.
#include "algorithms/registry.hpp"

#include "algorithms/brf/brf.hpp"
#include "algorithms/cart/cart.hpp"
#include "algorithms/common/privacy_label.hpp"
#include "algorithms/comprf/comprf.hpp"
#include "algorithms/denil14/denil14.hpp"
#include "algorithms/diffprivlib_rf/diffprivlib_rf.hpp"
#include "algorithms/dipreme/dipreme.hpp"
#include "algorithms/dp_df/dp_df.hpp"
#include "algorithms/dp_ebm/dp_ebm.hpp"
#include "algorithms/dp_ert/dp_ert.hpp"
#include "algorithms/dp_rf/dp_rf.hpp"
#include "algorithms/fs/fs.hpp"
#include "algorithms/jpw/jpw.hpp"
#include "algorithms/lumberjack/lumberjack.hpp"
#include "algorithms/matrix_rf/matrix_rf.hpp"
#include "algorithms/mrf/mrf.hpp"
#include "algorithms/privatree/privatree.hpp"
#include "algorithms/rgv/rgv.hpp"
#include "algorithms/s_bdt/s_bdt.hpp"
#include "algorithms/smooth_rdf/smooth_rdf.hpp"
#include "algorithms/tuning/tuning.hpp"
#include "core/util/named.hpp"

namespace dpf {

namespace {

std::vector<AlgorithmInfo> build_table() {
  const std::vector<std::vector<AlgorithmInfo>> families = {
      cart_algorithms(),            // rf, ert
      dipreme_algorithms(),         // dipreme, dipreme-exp, dipreme-flip, median-forest
      dp_ert_algorithms(),          // dp-ert
      dp_rf_algorithms(),           // dp-rf
      dp_df_algorithms(),           // dp-df
      lumberjack_algorithms(),      // lumberjack ((epsilon, delta)-DP; lumberjack.md)
      smooth_rdf_algorithms(),      // smooth-rdf, rdf-nonprivate
      jpw_algorithms(),             // jpw
      fs_algorithms(),              // fs
      rgv_algorithms(),             // rgv (reconstructed from Fletcher & Islam §5.2)
      matrix_rf_algorithms(),       // mrf-train, mrf-predict, mrf-subsample, mrf-*-lm, mrf-trees
      mrf_algorithms(),             // multinomial-rf, multinomial-rf-dp
      brf_algorithms(),             // brf
      denil14_algorithms(),         // denil14
      comprf_algorithms(),          // comprf-c, comprf-i
      diffprivlib_rf_algorithms(),  // diffprivlib-rf (IBM diffprivlib v0.6)
      privatree_algorithms(),       // privatree (the authors' HEAD "fixed" variant), privatree-v2 (arXiv v2 code)
      dp_ebm_algorithms(),          // dp-ebm ((epsilon, delta)-DP boosting, GDP accounting; dp-ebm.md)
      s_bdt_algorithms(),           // s-bdt ((epsilon, delta)-DP boosting; s-bdt.md), dpboost (§9)
  };
  std::vector<AlgorithmInfo> table;
  for (const auto& family : families)
    for (const AlgorithmInfo& a : family) table.push_back(complete_entry(a));
  // private-selection, enumerated-selection, oracle-tuning: meta-algorithms over the entries above, which they find through
  // find_algorithm when they fit (after this table is built), so their folder includes no family.
  const AlgorithmLookup lookup = [](const std::string& name) -> const AlgorithmInfo& { return find_algorithm(name); };
  for (const AlgorithmInfo& a : tuning_algorithms(lookup)) table.push_back(complete_entry(a));
  return table;
}

}  // namespace

const std::vector<AlgorithmInfo>& algorithm_table() {
  static const std::vector<AlgorithmInfo> table = build_table();
  return table;
}

const AlgorithmInfo& find_algorithm(const std::string& name) { return find_named(algorithm_table(), name, "algorithm"); }

}  // namespace dpf
