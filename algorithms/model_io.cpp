#include "algorithms/model_io.hpp"

#include <string>

#include "algorithms/common/rdf_forest.hpp"
#include "algorithms/comprf/comprf.hpp"
#include "algorithms/dp_ebm/dp_ebm.hpp"
#include "algorithms/lumberjack/lumberjack.hpp"
#include "algorithms/matrix_rf/matrix_rf.hpp"
#include "algorithms/s_bdt/s_bdt.hpp"
#include "algorithms/tuning/grid.hpp"
#include "core/tree/forest.hpp"
#include "core/util/named.hpp"

namespace dpf {

namespace {

struct Loader {
  const char* kind;
  std::unique_ptr<Model> (*load)(const JsonIn&, const Schema&);
};

std::unique_ptr<Model> load_forest(const JsonIn& in, const Schema& s) { return load_forest_model(in, s); }
// A tuned model holds its candidate's object, read back through this table.
std::unique_ptr<Model> load_tuned(const JsonIn& in, const Schema& s) { return load_tuned_model(in, s, &load_model); }

const Loader kLoaders[] = {
    {"forest", &load_forest},               // core/tree/forest_io.cpp: every ForestModel
    {"lumberjack", &load_lumberjack_model}, // algorithms/lumberjack
    {"comprf", &load_comprf_model},         // algorithms/comprf
    {"rdf", &load_rdf_model},               // algorithms/common/rdf_forest: smooth-rdf, rdf-nonprivate, jpw
    {"matrix-rf", &load_matrix_rf_model},   // algorithms/matrix_rf: its training methods
    {"dp-ebm", &load_dp_ebm_model},         // algorithms/dp_ebm
    {"boosted", &load_boosted_model},       // algorithms/s_bdt: s-bdt, dpboost
    {"tuned", &load_tuned},                 // algorithms/tuning: the three tuning entries
};

}  // namespace

std::unique_ptr<Model> load_model(const JsonIn& in, const Schema& schema) {
  const std::string kind = in["kind"].string();
  for (const Loader& l : kLoaders)
    if (kind == l.kind) return l.load(in, schema);
  in["kind"].fail_here("unknown model kind '" + kind +
                       "' (known: " + join_names(kLoaders, [](const Loader& l) { return l.kind; }) + ")");
}

}  // namespace dpf
