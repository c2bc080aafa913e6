// Hand-made datasets and scriptable policies for the grower tests: a split policy that asks a
// function what to do at each node and records what the grower showed it, and leaf policies that
// record the rows they were given.
#pragma once
#include <doctest/doctest.h>

#include <cctype>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/data/dataset.hpp"
#include "core/tree/grower.hpp"

namespace dpf::test {

// Features: x0 numeric [0, 10], x1 categorical {a, b, c, d}, x2 numeric [0, 1]; binary target.
inline Dataset small_dataset() {
  Schema s;
  Feature x0{"x0", FeatureKind::kNumeric, 0.0, 10.0, {}};
  Feature x1{"x1", FeatureKind::kCategorical, 0.0, 0.0, {"a", "b", "c", "d"}};
  Feature x2{"x2", FeatureKind::kNumeric, 0.0, 1.0, {}};
  s.features = {x0, x1, x2};
  s.target.name = "y";
  s.target.task = TaskKind::kClassification;
  s.target.classes = {"0", "1"};
  Dataset d("small", s);
  // 16 rows: x0 = 0.5, 1.5, ..., 9.0 spread, x1 cycles a..d, x2 alternates; y = x0 >= 5.
  for (int i = 0; i < 16; ++i) {
    const double x0v = 0.25 + 0.6 * i;
    const double row[3] = {x0v, static_cast<double>(i % 4), (i % 3) / 3.0 + 0.1};
    d.add_row(row, x0v >= 5.0 ? 1.0 : 0.0);
  }
  d.validate();
  return d;
}

struct Seen {
  std::vector<uint32_t> rows;
  std::vector<FeatureDomain> domains;
  std::vector<int> active;
  int depth = 0;
  PrivacyLedger::ScopeId scope = -1;
};

// Split policy driven by a function of the node; every node it is asked about is recorded.
class ScriptedSplit : public SplitPolicy {
 public:
  using Fn = std::function<std::optional<SplitChoice>(const NodeView&, Rng&, PrivacyLedger&)>;
  explicit ScriptedSplit(Fn fn) : fn_(std::move(fn)) {}
  std::optional<SplitChoice> choose(const NodeView& node, Rng& rng, PrivacyLedger& ledger) override {
    Seen s{{node.rows.begin(), node.rows.end()},
           {node.domains.begin(), node.domains.end()},
           {node.active.begin(), node.active.end()},
           node.depth,
           node.scope};
    seen[node.node_id] = s;
    return fn_(node, rng, ledger);
  }
  std::map<int32_t, Seen> seen;

 private:
  Fn fn_;
};

// Leaf policy: output = (class-0 count, class-1 count) and the rows are recorded per node; an
// optional hook charges the ledger.
class RecordingLeaf : public LeafPolicy {
 public:
  using Hook = std::function<void(const NodeView&, PrivacyLedger&)>;
  explicit RecordingLeaf(Hook hook = {}) : hook_(std::move(hook)) {}
  int n_outputs() const override { return 2; }
  void release(const NodeView& node, Rng&, PrivacyLedger& ledger, std::span<double> out) override {
    out[0] = out[1] = 0;
    for (uint32_t r : node.rows) out[static_cast<std::size_t>(node.data.label(r))] += 1;
    Seen s{{node.rows.begin(), node.rows.end()},
           {node.domains.begin(), node.domains.end()},
           {node.active.begin(), node.active.end()},
           node.depth,
           node.scope};
    seen[node.node_id] = s;
    if (hook_) hook_(node, ledger);
  }
  std::map<int32_t, Seen> seen;

 private:
  Hook hook_;
};

inline SplitChoice threshold_split(int feature, double t) {
  SplitChoice c;
  c.kind = SplitKind::kThreshold;
  c.feature = feature;
  c.threshold = t;
  return c;
}

inline SplitChoice subset_split(int feature, uint64_t mask) {
  SplitChoice c;
  c.kind = SplitKind::kSubset;
  c.feature = feature;
  c.mask = mask;
  return c;
}

// ---- Minimal JSON well-formedness check (RFC 8259 grammar, no semantic checks) -----------------
class JsonChecker {
 public:
  explicit JsonChecker(const std::string& s) : s_(s) {}
  bool ok() {
    pos_ = 0;
    ws();
    if (!value()) return false;
    ws();
    return pos_ == s_.size();
  }
  std::size_t error_at() const { return pos_; }

 private:
  bool value() {
    ws();
    if (pos_ >= s_.size()) return false;
    char c = s_[pos_];
    if (c == '{') return object();
    if (c == '[') return array();
    if (c == '"') return string();
    if (c == '-' || std::isdigit(static_cast<unsigned char>(c))) return number();
    for (const char* lit : {"true", "false", "null"}) {
      std::string l(lit);
      if (s_.compare(pos_, l.size(), l) == 0) {
        pos_ += l.size();
        return true;
      }
    }
    return false;
  }
  bool object() {
    ++pos_;
    ws();
    if (peek('}')) return ++pos_, true;
    for (;;) {
      ws();
      if (!string()) return false;
      ws();
      if (!peek(':')) return false;
      ++pos_;
      if (!value()) return false;
      ws();
      if (peek(',')) { ++pos_; continue; }
      if (peek('}')) return ++pos_, true;
      return false;
    }
  }
  bool array() {
    ++pos_;
    ws();
    if (peek(']')) return ++pos_, true;
    for (;;) {
      if (!value()) return false;
      ws();
      if (peek(',')) { ++pos_; continue; }
      if (peek(']')) return ++pos_, true;
      return false;
    }
  }
  bool string() {
    if (!peek('"')) return false;
    ++pos_;
    while (pos_ < s_.size()) {
      char c = s_[pos_++];
      if (c == '"') return true;
      if (static_cast<unsigned char>(c) < 0x20) return false;
      if (c == '\\') {
        if (pos_ >= s_.size()) return false;
        char e = s_[pos_++];
        if (e == 'u') {
          for (int i = 0; i < 4; ++i)
            if (pos_ >= s_.size() || !std::isxdigit(static_cast<unsigned char>(s_[pos_++]))) return false;
        } else if (std::string("\"\\/bfnrt").find(e) == std::string::npos) {
          return false;
        }
      }
    }
    return false;
  }
  bool number() {
    std::size_t start = pos_;
    if (peek('-')) ++pos_;
    if (!digits()) return false;
    if (peek('.')) { ++pos_; if (!digits()) return false; }
    if (peek('e') || peek('E')) {
      ++pos_;
      if (peek('+') || peek('-')) ++pos_;
      if (!digits()) return false;
    }
    return pos_ > start;
  }
  bool digits() {
    std::size_t start = pos_;
    while (pos_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[pos_]))) ++pos_;
    return pos_ > start;
  }
  bool peek(char c) const { return pos_ < s_.size() && s_[pos_] == c; }
  void ws() {
    while (pos_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[pos_]))) ++pos_;
  }
  const std::string& s_;
  std::size_t pos_ = 0;
};

inline bool json_well_formed(const std::string& s) { return JsonChecker(s).ok(); }

}  // namespace dpf::test
