// A saved model (`dpforest fit --save`, `dpforest predict`, dpforest.save in Python): one JSON file
// holding exactly the release of a fit and the public facts needed to use it, never training rows,
// true counts, RNG keys or diagnostics:
//   {"format": "dpforest-model", "version": 1,
//    "algorithm", "task", "params": the resolved registry parameters (canonical text),
//    "privacy": {"status", "epsilon", "delta"}: the configuration's privacy status and its a-priori
//        bound. Not the ledger's spent epsilon: a fit can spend less than the bound (levels that are
//        not grown, early stops), so the spent value depends on the rows and is not released;
//    "schema": the public input schema (core/data/schema_io.hpp),
//    "preprocess": {"bins": k}: equal-width binning of the numeric features on their public domains
//        before the model (0: none; core/data/preprocess.hpp bin_equal_width),
//    "model": the model's own object (Model::save; the loader table, model_io.hpp),
//    "estimator": optional, written by the Python package: the estimator's class and its public
//        constructor arguments}
// Doubles are written to read back bit-identically, so a loaded model predicts exactly as the fitted one.
#pragma once
#include <cstddef>
#include <map>
#include <memory>
#include <string>
#include <string_view>

#include "algorithms/registry_fit.hpp"
#include "core/data/dataset.hpp"

namespace dpf {

inline constexpr int kSavedModelVersion = 1;
// The largest saved model read (a forest of RDF trees written in full stays below kMaxSavedRdfLeaves).
inline constexpr std::size_t kMaxSavedModelBytes = std::size_t{1} << 30;

struct SavedModel {
  std::string source;  // file name, for messages
  std::string algorithm;
  std::map<std::string, std::string> params;
  std::string privacy_status;
  PrivacyBound bound;  // a-priori
  Schema schema;       // the input schema (before binning)
  int bins = 0;
  std::unique_ptr<Model> model;

  // The model's predictions for rows of `data` (the input schema: binned here when bins > 0).
  Predictions predict(const Dataset& data) const;
};

// The saved file of a fit on data with `input_schema` (binned into `bins` before the fit when > 0).
// Fails, saying why, for a model that cannot be saved (its release happens in predict(), or it
// holds no savable release).
std::string saved_model_json(const RegistryFit& fit, const Schema& input_schema, int bins);
SavedModel parse_saved_model(std::string_view text, const std::string& source);
SavedModel read_saved_model(const std::string& path);

}  // namespace dpf
