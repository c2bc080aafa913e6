// Lookup by name in a table (the algorithm registry, formulas, audit mechanisms, ...), with the one
// error every such table gives: which name is unknown and which names are known (design.md §6).
#pragma once
#include <cstddef>
#include <string>
#include <string_view>

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

// An enum's names, one table per enum: parse and print both read it, so the two cannot disagree.
template <class E>
struct NamedValue {
  const char* name;
  E value;
};

// The value named `s`, or nullptr.
template <class E, std::size_t N>
const E* value_named(const NamedValue<E> (&table)[N], std::string_view s) {
  for (const NamedValue<E>& n : table)
    if (s == n.name) return &n.value;
  return nullptr;
}

// The name of `v`, or "?" for a value the table lacks.
template <class E, std::size_t N>
const char* name_of(const NamedValue<E> (&table)[N], E v) {
  for (const NamedValue<E>& n : table)
    if (n.value == v) return n.name;
  return "?";
}

}  // namespace dpf
