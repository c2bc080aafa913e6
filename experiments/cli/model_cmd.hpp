// `dpforest fit` and `dpforest predict`: train a model once and use it later (algorithms/saved_model.hpp).
//   dpforest fit --algorithm NAME --dataset ID [--param k=v ...] [--seed S] [--bins K] --save model.json
//   dpforest predict model.json data.csv [--out preds.csv] [--clip]
#pragma once
#include <string>
#include <vector>

#include "algorithms/saved_model.hpp"
#include "core/data/loaders.hpp"

namespace dpf {

int cmd_fit(const std::vector<std::string>& args);
int cmd_predict(const std::vector<std::string>& args);

// The rows of a CSV table (header = the model's feature names, in any order; other columns, e.g. the
// target, are ignored) as a Dataset with the model's input schema. A value that does not parse, a
// missing value, an unknown category, or a numeric value outside its public domain fails naming the
// file, the line and the column; with `clip`, numeric values outside the domain are clipped to it
// (post-processing of the input, it spends no privacy).
Dataset table_with_schema(const RawTable& table, const Schema& schema, bool clip);

}  // namespace dpf
