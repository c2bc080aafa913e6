// The loader table of saved models (Model::save in core/tree/model.hpp): the "kind" each model
// writes -> the function that reads it back. One table beside the registry, the only place that
// depends on every family (design.md §4).
#pragma once
#include <memory>

#include "core/data/schema.hpp"
#include "core/tree/model.hpp"
#include "core/util/json_read.hpp"

namespace dpf {

// The model object written by Model::save, checked against `schema` (the schema the model predicts
// on). Fails naming the key for an unknown kind or a malformed model.
std::unique_ptr<Model> load_model(const JsonIn& in, const Schema& schema);

}  // namespace dpf
