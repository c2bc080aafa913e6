// Lookup by name in a table (the algorithm registry, formulas, audit mechanisms, ...), with the one
// error every such table gives: which name is unknown and which names are known (design.md §6).
#pragma once
#include <string>

#include "core/util/error.hpp"

namespace dpf {

// "a, b, c": the names of `items` in order, as `name_of` reads each.
template <class Range, class NameOf>
std::string join_names(const Range& items, NameOf name_of) {
  std::string out;
  for (const auto& x : items) out += (out.empty() ? "" : ", ") + std::string(name_of(x));
  return out;
}

// The first element of `items` whose member `name` equals `name`; otherwise throws
// "unknown <what> '<name>' (known: <every name>)".
template <class Range>
const auto& find_named(const Range& items, const std::string& name, const char* what) {
  for (const auto& x : items)
    if (x.name == name) return x;
  fail("unknown ", what, " '", name, "' (known: ", join_names(items, [](const auto& x) { return x.name; }), ")");
}

}  // namespace dpf
