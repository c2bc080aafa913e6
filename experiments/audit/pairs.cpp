#include "experiments/audit/pairs.hpp"

#include <yaml-cpp/yaml.h>

#include <functional>
#include <map>

#include "core/data/preprocess.hpp"
#include "core/util/error.hpp"
#include "core/util/named.hpp"
#include "core/util/input_check.hpp"

namespace dpf {
namespace {

using Rows = std::vector<std::vector<double>>;

AuditPair make(const std::string& name, const std::string& description, std::vector<std::pair<double, double>> domains,
               const Rows& d0, const Rows& d1, int bins = 0) {
  AuditPair p;
  p.name = name;
  p.description = description;
  p.d0 = tiny_dataset(domains, 2, d0, name);
  p.d1 = tiny_dataset(domains, 2, d1, name);
  if (bins > 0) {
    p.d0 = bin_equal_width(p.d0, bins);
    p.d1 = bin_equal_width(p.d1, bins);
  }
  return p;
}

Rows grid_rows(int n, int features) {
  Rows r;
  for (int i = 0; i < n; ++i) {
    std::vector<double> row{(i + 0.5) / n};
    if (features == 2) row.push_back(((i * 7) % n + 0.5) / n);
    row.push_back(static_cast<double>(i % 2));
    r.push_back(row);
  }
  return r;
}

struct Builtin {
  std::string description;
  std::function<AuditPair(const std::string&, const std::string&)> make;
};

// The built-in neighbouring pairs, registered in two halves; the first: class-set, n-depth, tie-order, empty-leaf, occupancy, occupancy-binned, narrow-interval.
void add_first_pairs(std::map<std::string, Builtin>& table) {
  table.insert({
      {"class-set",
       {"D holds class 0 only, D' adds one row of class 1 inside the same feature range: a class set read from the "
        "rows never releases label 1 on D",
        [](const std::string& n, const std::string& d) {
          return make(n, d, {{0, 1}}, {{0.2, 0}, {0.8, 0}}, {{0.2, 0}, {0.8, 0}, {0.5, 1}});
        }}},
      {"n-depth",
       {"n = 3 vs n = 4 with two features: JPW's depth min(m/2, log2 n - 1) is 0 vs 1",
        [](const std::string& n, const std::string& d) {
          return make(n, d, {{0, 1}, {0, 1}}, {{0.2, 0.3, 0}, {0.6, 0.7, 1}, {0.4, 0.9, 0}},
                      {{0.2, 0.3, 0}, {0.6, 0.7, 1}, {0.4, 0.9, 0}, {0.8, 0.1, 1}});
        }}},
      {"tie-order",
       {"one leaf with one row of each class; D' inserts a class-1 row first: a tie-break by the first row seen "
        "follows the private row order",
        [](const std::string& n, const std::string& d) {
          return make(n, d, {{0, 1}}, {{0.5, 0}, {0.5, 1}}, {{0.5, 1}, {0.5, 0}, {0.5, 1}});
        }}},
      {"empty-leaf",
       {"one row of each class near 0; D' adds a class-0 row near 1, filling the empty right leaf of a depth-1 tree",
        [](const std::string& n, const std::string& d) {
          return make(n, d, {{0, 1}}, {{0.02, 0}, {0.03, 1}}, {{0.02, 0}, {0.03, 1}, {0.98, 0}});
        }}},
      {"occupancy",
       {"n = 3 vs n = 4: with occupancy 1 the DiPriMe rule floor(log2 n) gives depth 1 vs 2",
        [](const std::string& n, const std::string& d) {
          const Rows r = grid_rows(25, 1);
          return make(n, d, {{0, 1}}, Rows(r.begin(), r.begin() + 3), Rows(r.begin(), r.begin() + 4));
        }}},
      {"occupancy-binned",
       {"n = 24 vs n = 25, two features in 5 bins: with occupancy 1 the rule floor(log5 n) gives depth 1 vs 2 (DP-RF, DP-DF)",
        [](const std::string& n, const std::string& d) {
          const Rows r = grid_rows(25, 2);
          return make(n, d, {{0, 1}, {0, 1}}, Rows(r.begin(), r.begin() + 24), r, 5);
        }}},
      {"narrow-interval",
       {"D = {.2, .4, .6, .8}, D' adds .401: a median drawn uniformly inside a data interval without length weighting "
        "lands in the new narrow interval [.4, .401] far too often (privacy.md §6.3: loss 4.9 at eps 1)",
        [](const std::string& n, const std::string& d) {
          return make(n, d, {{0, 1}}, {{0.2, 0}, {0.4, 1}, {0.6, 0}, {0.8, 1}},
                      {{0.2, 0}, {0.4, 1}, {0.401, 1}, {0.6, 0}, {0.8, 1}});
        }}},
  });
}

// The second half of the built-in pairs: smooth-label, partition-shift, block-shift, gini-noisy-n, heavy-split, count-two-three, median-move.
void add_second_pairs(std::map<std::string, Builtin>& table) {
  table.insert({
      {"smooth-label",
       {"one leaf with class counts (0, 1) vs (0, 2): the smooth-sensitivity label EM (privacy.md §6.1: loss 2.13 at eps 1)",
        [](const std::string& n, const std::string& d) { return make(n, d, {{0, 1}}, {{0.5, 1}}, {{0.5, 1}, {0.5, 1}}); }}},
      {"partition-shift",
       {"5 vs 6 identical class-0 rows: equal chunks of a shuffled order give each of 3 trees 1 row on D and 2 on "
        "D' (one added row moves others between trees; the review's pair: loss 3 eps for per-tree leaf labels)",
        [](const std::string& n, const std::string& d) {
          const Rows five(5, std::vector<double>{0.5, 0.0});
          return make(n, d, {{0, 1}}, five, Rows(6, std::vector<double>{0.5, 0.0}));
        }}},
      {"block-shift",
       {"6 rows 0 0 1 1 0 0 by position vs the same without the first: diffprivlib's blocks floor(i / (n / 3)) "
        "change from {0,0} {1,1} {0,0} to {0,1} {1,0} {0}, so one removed row changes every tree's counts "
        "(diffprivlib-rf.md §3; about 4 eps for per-tree leaf labels with 3 trees)",
        [](const std::string& n, const std::string& d) {
          const Rows d0{{0.5, 0}, {0.5, 0}, {0.5, 1}, {0.5, 1}, {0.5, 0}, {0.5, 0}};
          return make(n, d, {{0, 1}}, d0, Rows(d0.begin() + 1, d0.end()));
        }}},
      {"gini-noisy-n",
       {"D = (.05, 0), (.95, 1); D' adds (.95, 0): with 10 bins the weighted Gini of 9 of 10 splits moves by "
        "1/(n+1) = 1/3, above PrivaTree's noisy-size sensitivity 2m/(m+1)^2 once the noisy size m >= 4 (privatree.md §4)",
        [](const std::string& n, const std::string& d) {
          return make(n, d, {{0, 1}}, {{0.05, 0}, {0.95, 1}}, {{0.05, 0}, {0.95, 1}, {0.95, 0}});
        }}},
      {"heavy-split",
       {"D = {(.1, 0)}, D' adds (.9, 0): in a tree whose root split falls in (.1, .9) the added row makes a "
        "second node non-empty, so it is queried (and may be found heavy) only on D' (Lumberjack's appearing "
        "count, lumberjack.md §3.2 case 1; its exact lumberjack_heavy_queries column reads 1 vs 2)",
        [](const std::string& n, const std::string& d) { return make(n, d, {{0, 1}}, {{0.1, 0}}, {{0.1, 0}, {0.9, 0}}); }}},
      {"count-two-three",
       {"a node count 2 vs 3 (D = {(.2, 0), (.4, 1)}, D' adds (.6, 0)): Lumberjack as coded never queries a "
        "node of n <= 2, so the root can be heavy only on D' (lumberjack.md §4.2-§4.3, quirk as_coded_suppression)",
        [](const std::string& n, const std::string& d) {
          return make(n, d, {{0, 1}}, {{0.2, 0}, {0.4, 1}}, {{0.2, 0}, {0.4, 1}, {0.6, 0}});
        }}},
      {"selection-flip",
       {"D = (.1, 0), (.9, 1); D' adds (.4, 1): a depth-1 PrivaTree with 4 bins can classify the added row, one with 2 "
        "bins cannot, so when it falls in the validation part the private selection's scores move by one count "
        "(private-selection, algorithms/tuning)",
        [](const std::string& n, const std::string& d) {
          return make(n, d, {{0, 1}}, {{0.1, 0}, {0.9, 1}}, {{0.1, 0}, {0.9, 1}, {0.4, 1}});
        }}},
      {"median-move",
       {"D = {.1, .4, .6, .9}, D' adds .95: the median moves (privacy.md §7.5 E1-style pair)",
        [](const std::string& n, const std::string& d) {
          return make(n, d, {{0, 1}}, {{0.1, 0}, {0.4, 1}, {0.6, 0}, {0.9, 1}},
                      {{0.1, 0}, {0.4, 1}, {0.6, 0}, {0.9, 1}, {0.95, 1}});
        }}},
  });
}

const std::map<std::string, Builtin>& builtins() {
  static const std::map<std::string, Builtin> table = [] {
    std::map<std::string, Builtin> t;
    add_first_pairs(t);
    add_second_pairs(t);
    return t;
  }();
  return table;
}

}  // namespace

std::vector<std::string> builtin_pair_names() {
  std::vector<std::string> out;
  for (const auto& [k, v] : builtins()) out.push_back(k);
  return out;
}

std::string builtin_pair_help() {
  std::string out;
  for (const auto& [k, v] : builtins()) out += "  " + k + ": " + v.description + "\n";
  return out;
}

AuditPair builtin_pair(const std::string& name) {
  const auto& t = builtins();
  auto it = t.find(name);
  if (it == t.end())
    fail("unknown audit pair '", name, "' (built-in: ", join_names(t, [](const auto& kv) { return kv.first; }),
         "; or give a pair file, see experiments/audit/pairs.hpp)");
  return it->second.make(name, it->second.description);
}

AuditPair load_audit_pair(const std::string& path) {
  const YAML::Node root = load_yaml_file_strict(path);  // size, UTF-8, repeated keys; names the file
  require(root.IsMap(), path, ": a pair file is a map with keys features, classes, d0, d1");
  for (const auto& kv : root) {
    const std::string k = kv.first.as<std::string>();
    require(k == "name" || k == "description" || k == "features" || k == "classes" || k == "bins" || k == "d0" || k == "d1",
            path, ": unknown key '", k, "' (known: name, description, features, classes, bins, d0, d1)");
  }
  for (const char* k : {"features", "classes", "d0", "d1"}) require(static_cast<bool>(root[k]), path, ": missing key '", k, "'");
  auto num = [&](const YAML::Node& n, const std::string& where) {
    try {
      return n.as<double>();
    } catch (const YAML::Exception&) {
      fail(path, ": ", where, ": expected a number");
    }
  };
  std::vector<std::pair<double, double>> domains;
  require(root["features"].IsSequence() && root["features"].size() > 0, path, ": features: a list of [lo, hi] pairs");
  for (std::size_t f = 0; f < root["features"].size(); ++f) {
    const YAML::Node d = root["features"][f];
    const std::string w = "features[" + std::to_string(f) + "]";
    require(d.IsSequence() && d.size() == 2, path, ": ", w, ": expected [lo, hi]");
    domains.emplace_back(num(d[0], w), num(d[1], w));
    require(domains.back().first < domains.back().second, path, ": ", w, ": lo must be < hi");
  }
  const double classes = num(root["classes"], "classes");
  require(classes >= 2 && classes <= 64 && classes == static_cast<int>(classes), path, ": classes: an integer in 2..64");
  auto rows = [&](const char* key) {
    Rows out;
    require(root[key].IsSequence(), path, ": ", key, ": a list of rows");
    for (std::size_t i = 0; i < root[key].size(); ++i) {
      const YAML::Node r = root[key][i];
      const std::string w = std::string(key) + "[" + std::to_string(i) + "]";
      require(r.IsSequence(), path, ": ", w, ": a row is a list of numbers");
      std::vector<double> row;
      for (std::size_t j = 0; j < r.size(); ++j) row.push_back(num(r[j], w));
      out.push_back(row);
    }
    return out;
  };
  AuditPair p;
  p.name = root["name"] ? root["name"].as<std::string>() : path;
  p.description = root["description"] ? root["description"].as<std::string>() : "";
  try {
    p.d0 = tiny_dataset(domains, static_cast<int>(classes), rows("d0"), p.name);
    p.d1 = tiny_dataset(domains, static_cast<int>(classes), rows("d1"), p.name);
  } catch (const Error& e) {
    fail(path, ": ", e.what());
  }
  if (root["bins"]) {
    const double b = num(root["bins"], "bins");
    require(b >= 2 && b <= 64 && b == static_cast<int>(b), path, ": bins: an integer in 2..64");
    p.d0 = bin_equal_width(p.d0, static_cast<int>(b));
    p.d1 = bin_equal_width(p.d1, static_cast<int>(b));
  }
  return p;
}

}  // namespace dpf
