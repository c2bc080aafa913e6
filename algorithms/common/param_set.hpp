// A family's parameters, declared once (design.md §6): each parameter is bound to the member of the
// family's params struct that receives it, so the schema the registry shows (specs()) and the struct a
// learner is built from (from()) come from one list. The member's type is the parameter's type (a
// ParamSpec's `type` field need not be set: add() sets it), and a string parameter may map its choices
// to an enum.
//
//   struct DpErtParams { double epsilon = 1; int n_trees = 10; bool strict = false; ... };
//   using P = DpErtParams;
//   return {with_learner<DpErtLearner>(a, ParamSet<P>()
//                                             .add(&P::epsilon, param::epsilon())
//                                             .add(&P::n_trees, param::n_trees(10, "N_T"))
//                                             .add(&P::strict, param::strict()))};
//
// with_learner sets the entry's schema (the set's specs, then reference_quirks with the entry's quirk
// names as choices) and its factory (the learner from set.from(params)), and keeps the set.
//
// Shared parameters (epsilon, n_trees, max_depth, strict, ...) come from the builders in
// algorithms/common/shared_params.hpp, so their name, range and (where it is shared) default are
// written once for every algorithm.
#pragma once
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "algorithms/common/algorithm_info.hpp"

namespace dpf {

template <class P>
class ParamSet {
 public:
  using Setter = std::function<void(P&, const Params&)>;

  ParamSet& add(int P::*m, ParamSpec s) {
    return bind(ParamType::kInt, std::move(s), [m](P& p, const Params& v, const std::string& n) { p.*m = v.get_int(n); });
  }
  ParamSet& add(double P::*m, ParamSpec s) {
    return bind(ParamType::kDouble, std::move(s),
                [m](P& p, const Params& v, const std::string& n) { p.*m = v.get_double(n); });
  }
  ParamSet& add(bool P::*m, ParamSpec s) {
    return bind(ParamType::kBool, std::move(s), [m](P& p, const Params& v, const std::string& n) { p.*m = v.get_bool(n); });
  }
  ParamSet& add(std::string P::*m, ParamSpec s) {
    return bind(ParamType::kString, std::move(s),
                [m](P& p, const Params& v, const std::string& n) { p.*m = v.get_string(n); });
  }
  // A string parameter whose choices map to values of the member's type (an enum, usually). The
  // spec's choices are the mapping's names, in order.
  template <class E>
  ParamSet& add(E P::*m, ParamSpec s, std::vector<std::pair<std::string, E>> values) {
    s.choices.clear();
    for (const auto& [name, value] : values) s.choices.push_back(name);
    return bind(ParamType::kString, std::move(s), [m, values](P& p, const Params& v, const std::string& n) {
      for (const auto& [name, value] : values)
        if (name == v.get_string(n)) p.*m = value;
    });
  }
  // A parameter the family reads itself (for its privacy status or bound), bound to no member.
  ParamSet& declare(ParamSpec s) {
    specs_.push_back(std::move(s));
    return *this;
  }
  // A flag set when `quirk` is listed in reference_quirks.
  ParamSet& quirk(bool P::*m, std::string quirk) {
    setters_.push_back([m, quirk](P& p, const Params& v) {
      p.*m = v.has("reference_quirks") && v.list_contains("reference_quirks", quirk);
    });
    return *this;
  }
  // Anything else `from` must do after the bound members are set (a derived value, a quirk that
  // rescales a member), in declaration order.
  ParamSet& then(Setter f) {
    setters_.push_back(std::move(f));
    return *this;
  }

  // The schema: the declared parameters, then reference_quirks with `quirks` as its choices.
  std::vector<ParamSpec> specs(const std::vector<QuirkSpec>& quirks) const {
    std::vector<ParamSpec> out = specs_;
    out.push_back(quirks_param(quirks));
    return out;
  }
  // The family's struct from resolved parameters, starting from `base`.
  P from(const Params& v, P base = P{}) const {
    for (const Setter& s : setters_) s(base, v);
    return base;
  }

 private:
  ParamSet& bind(ParamType type, ParamSpec s, std::function<void(P&, const Params&, const std::string&)> set) {
    s.type = type;
    setters_.push_back([set = std::move(set), name = s.name](P& p, const Params& v) { set(p, v, name); });
    specs_.push_back(std::move(s));
    return *this;
  }

  std::vector<ParamSpec> specs_;
  std::vector<Setter> setters_;
};

// An entry whose learner `make` builds from the family's params struct, make(set.from(params, base)),
// `base` holding what the entry fixes (its name, a variant): the schema (the set's specs, then the
// entry's quirks) and the factory both follow from the set, which the entry hands over and the factory
// keeps. So a family declares its parameters once, in its entry, next to its description, quirks,
// status and bound.
template <class P, class Make>
AlgorithmInfo with_factory(AlgorithmInfo a, ParamSet<P> set, P base, Make make) {
  a.params = set.specs(a.quirks);
  auto owned = std::make_shared<const ParamSet<P>>(std::move(set));
  a.make = [owned, base = std::move(base), make](const Params& p, const Schema&) -> std::unique_ptr<Learner> {
    return make(owned->from(p, base));
  };
  return a;
}

// The same, for a learner L constructed from the params struct (its constructor validates them).
template <class L, class P>
AlgorithmInfo with_learner(AlgorithmInfo a, ParamSet<P> set, P base = P{}) {
  return with_factory(std::move(a), std::move(set), std::move(base),
                      [](P p) -> std::unique_ptr<Learner> { return std::make_unique<L>(std::move(p)); });
}

}  // namespace dpf
