// The public schema (schema.hpp) as JSON, for saved models (algorithms/saved_model.hpp): feature
// names, kinds, numeric domains, category lists, the class list or the target bounds, and where the
// domains came from. Nothing about the rows (no missing-value rule: a saved model refuses a missing
// value, since the medians that would impute it were read from the training rows).
#pragma once
#include "core/data/schema.hpp"
#include "core/util/json.hpp"
#include "core/util/json_read.hpp"

namespace dpf {

void write_schema(JsonWriter& w, const Schema& s);
// Checks what array_schema checks: names unique, finite domains lo <= hi, categories non-empty and
// unique, at least one class (or finite target bounds); fails naming the key.
Schema read_schema(const JsonIn& in);

}  // namespace dpf
