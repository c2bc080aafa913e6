#include "experiments/audit/audit.hpp"

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstring>
#include <exception>
#include <functional>
#include <sstream>
#include <unordered_map>
#include <unordered_set>

#include "algorithms/registry.hpp"
#include "core/eval/clopper_pearson.hpp"
#include "core/privacy/rng.hpp"
#include "core/util/error.hpp"

namespace dpf {
namespace {

uint64_t fit_seed(uint64_t seed, int side, int64_t i) {
  return hash_combine(hash_combine(mix64(seed), static_cast<uint64_t>(side) + 1), static_cast<uint64_t>(i));
}

int64_t quantise(double v, double resolution) {
  if (std::isnan(v)) return std::numeric_limits<int64_t>::min();
  if (resolution > 0) {
    const double q = std::floor(v / resolution);
    if (q >= 9.2e18) return std::numeric_limits<int64_t>::max();
    if (q <= -9.2e18) return std::numeric_limits<int64_t>::min() + 1;
    return static_cast<int64_t>(q);
  }
  if (v == 0.0) v = 0.0;  // -0.0 and 0.0 are one output
  int64_t bits;
  std::memcpy(&bits, &v, sizeof bits);
  return bits;
}

uint64_t release_hash(const Release& r, double resolution, int keep) {
  uint64_t h = hash_combine(0x5eed, r.discrete.size());
  for (int64_t v : r.discrete) h = hash_combine(h, static_cast<uint64_t>(v));
  const std::size_t k = keep < 0 ? r.continuous.size() : std::min<std::size_t>(r.continuous.size(), static_cast<std::size_t>(keep));
  h = hash_combine(h, k);
  for (std::size_t i = 0; i < k; ++i) h = hash_combine(h, static_cast<uint64_t>(quantise(r.continuous[i], resolution)));
  return h;
}

std::string render(const Release& r, double resolution) {
  std::ostringstream os;
  os << "discrete [";
  for (std::size_t i = 0; i < r.discrete.size() && i < 24; ++i) os << (i ? " " : "") << r.discrete[i];
  if (r.discrete.size() > 24) os << " ... (" << r.discrete.size() << ")";
  os << "] continuous [";
  os.precision(4);
  for (std::size_t i = 0; i < r.continuous.size() && i < 12; ++i) {
    os << (i ? " " : "");
    if (resolution > 0) os << "bin " << quantise(r.continuous[i], resolution);
    else os << r.continuous[i];
  }
  if (r.continuous.size() > 12) os << " ... (" << r.continuous.size() << ")";
  os << "]";
  return os.str();
}

struct Counts {
  int64_t a = 0, b = 0;
};

// The lower bound an event gives with counts num (on the side where it is likelier) and den out of n
// fits per side, each interval at confidence alpha: ln(cp_lower / cp_upper) for pure epsilon,
// cp_lower - e^eps cp_upper for delta at eps. -inf when there is nothing to bound.
using Score = std::function<double(int64_t num, int64_t den, int64_t n, double alpha)>;

double epsilon_score(int64_t num, int64_t den, int64_t n, double alpha) {
  const double lo = cp_lower(num, n, alpha), hi = cp_upper(den, n, alpha);
  return lo > 0 ? std::log(lo / hi) : -HUGE_VAL;
}

Score delta_score(double epsilon) {
  const double e = std::exp(epsilon);
  return [e](int64_t num, int64_t den, int64_t n, double alpha) {
    return cp_lower(num, n, alpha) - e * cp_upper(den, n, alpha);
  };
}

// The event chosen on the selection half for "num likelier than den": a set of output hashes, a
// prefix of the likelihood-ratio ranking (the level sets that maximise both divergences).
struct Choice {
  std::vector<uint64_t> outputs;
  double estimate = -HUGE_VAL;
};

Choice choose_event(const std::unordered_map<uint64_t, Counts>& sel, bool num_is_a, int64_t n_sel, double alpha,
                    const Score& score) {
  std::vector<std::pair<double, uint64_t>> ranked;
  for (const auto& [h, c] : sel) {
    const int64_t num = num_is_a ? c.a : c.b, den = num_is_a ? c.b : c.a;
    if (num > den) ranked.emplace_back(std::log((num + 1.0) / (den + 1.0)), h);
  }
  std::sort(ranked.begin(), ranked.end(), [](const auto& x, const auto& y) { return x.first > y.first || (x.first == y.first && x.second < y.second); });
  Choice best;
  std::size_t best_len = 0;
  int64_t num = 0, den = 0;
  const std::size_t cap = std::min<std::size_t>(ranked.size(), 4096);
  for (std::size_t i = 0; i < cap; ++i) {
    const Counts& c = sel.at(ranked[i].second);
    num += num_is_a ? c.a : c.b;
    den += num_is_a ? c.b : c.a;
    const double est = score(num, den, n_sel, alpha);
    if (est > best.estimate) {
      best.estimate = est;
      best_len = i + 1;
    }
  }
  for (std::size_t i = 0; i < best_len; ++i) best.outputs.push_back(ranked[i].second);
  return best;
}

// Both directions: the event of each chosen on the selection half, bounded on the test half with
// alpha / 4 per interval. value is the larger bound, floored at 0.
struct Bounded {
  double value = 0.0;
  std::string direction;
  int64_t num = 0, den = 0;
  std::vector<uint64_t> event;
};

Bounded bound_both(const std::unordered_map<uint64_t, Counts>& sel, const std::unordered_map<uint64_t, Counts>& test,
                   int64_t n_sel, int64_t n_test, double a4, const Score& score) {
  Bounded b;
  for (int dir = 0; dir < 2; ++dir) {
    const bool num_is_a = dir == 1;  // dir 0: the event is likelier on d1 (side b); dir 1: on d0
    const Choice c = choose_event(sel, num_is_a, n_sel, a4, score);
    if (c.outputs.empty()) continue;
    int64_t num = 0, den = 0;
    for (uint64_t h : c.outputs) {
      auto it = test.find(h);
      if (it == test.end()) continue;
      num += num_is_a ? it->second.a : it->second.b;
      den += num_is_a ? it->second.b : it->second.a;
    }
    const double lb = std::max(0.0, score(num, den, n_test, a4));
    if (lb > b.value || b.event.empty()) {
      if (lb > b.value) b.value = lb;
      b.direction = num_is_a ? "d0 vs d1" : "d1 vs d0";
      b.num = num;
      b.den = den;
      b.event = c.outputs;
    }
  }
  return b;
}

// The event in words: how many outputs, how often on each side, and one of them (`example` renders
// fit i of a side).
std::string describe_event(const AuditResult& r, const std::vector<uint64_t>& event, const std::vector<uint64_t>& out,
                           int64_t n, const std::function<std::string(int, int64_t)>& example) {
  std::ostringstream ev;
  if (event.empty()) {
    ev << "no output is likelier on one dataset than on the other in the selection half";
    return ev.str();
  }
  const bool on_d1 = r.direction == "d1 vs d0";
  ev << "the release is one of " << event.size() << " output(s) seen more often on " << (on_d1 ? "d1" : "d0") << ": "
     << r.k_num << "/" << r.n_half << " fits vs " << r.k_den << "/" << r.n_half << " on " << (on_d1 ? "d0" : "d1");
  const std::unordered_set<uint64_t> in_event(event.begin(), event.end());
  const int side = on_d1 ? 1 : 0;
  for (int64_t i = 0; i < n; ++i)
    if (in_event.count(out[static_cast<std::size_t>(side * n + i)])) {
      ev << "; e.g. " << example(side, i);
      break;
    }
  return ev.str();
}

}  // namespace

Dataset tiny_dataset(const std::vector<std::pair<double, double>>& numeric_domains, int n_classes,
                     const std::vector<std::vector<double>>& rows, const std::string& name) {
  require(!numeric_domains.empty() && n_classes >= 2, "tiny_dataset '", name, "': need a feature and two classes");
  Schema s;
  for (std::size_t f = 0; f < numeric_domains.size(); ++f)
    s.features.push_back(Feature{"x" + std::to_string(f), FeatureKind::kNumeric, numeric_domains[f].first,
                                 numeric_domains[f].second, {}});
  s.target.name = "y";
  s.target.task = TaskKind::kClassification;
  for (int c = 0; c < n_classes; ++c) s.target.classes.push_back(std::to_string(c));
  Dataset d(name, s);
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const auto& r = rows[i];
    require(r.size() == numeric_domains.size() + 1, "tiny_dataset '", name, "': row ", i, " has ", r.size(),
            " values, expected ", numeric_domains.size() + 1, " (features then the class)");
    const double y = r.back();
    require(y >= 0 && y < n_classes && y == std::floor(y), "tiny_dataset '", name, "': row ", i, ": class ", y,
            " is not one of 0..", n_classes - 1);
    for (std::size_t f = 0; f < numeric_domains.size(); ++f)
      require(r[f] >= numeric_domains[f].first && r[f] <= numeric_domains[f].second, "tiny_dataset '", name, "': row ",
              i, " feature ", f, " = ", r[f], " is outside its public domain");
    d.add_row(std::span<const double>(r.data(), numeric_domains.size()), y);
  }
  d.validate();
  return d;
}

namespace {

// Fits on every row of each dataset of the pair, thread t using learners[min(t, size - 1)].
AuditResult audit_fits(const std::vector<const Learner*>& learners, const AuditPair& pair, const AuditOptions& opt) {
  require(pair.d0.schema().n_features() == pair.d1.schema().n_features() &&
              pair.d0.n_classes() == pair.d1.n_classes(),
          "audit pair '", pair.name, "': the two datasets must share one schema");
  const Dataset* data[2] = {&pair.d0, &pair.d1};
  std::vector<uint32_t> rows[2];
  for (int s = 0; s < 2; ++s)
    for (std::size_t i = 0; i < data[s]->n_rows(); ++i) rows[s].push_back(static_cast<uint32_t>(i));
  const int last = static_cast<int>(learners.size()) - 1;
  return run_audit(
      [&](int side, uint64_t seed, double* spent) {
        const Learner& learner = *learners[static_cast<std::size_t>(std::min(omp_get_thread_num(), last))];
        FitContext ctx{Rng(seed), PrivacyLedger(), 1};
        std::unique_ptr<Model> m = learner.fit(*data[side], rows[side], ctx);
        if (spent) *spent = std::max(*spent, ctx.ledger.spent());
        return m->released();
      },
      opt);
}

}  // namespace

AuditResult run_audit(const std::string& algorithm, const std::map<std::string, std::string>& params,
                      const AuditPair& pair, const AuditOptions& opt) {
  const AlgorithmInfo& info = find_algorithm(algorithm);
  const Params p = resolve_params(algorithm, info.params, params, "audit of '" + algorithm + "'");
  // One learner per thread: a Learner may keep per-fit state (matrix-rf resolves its per-dataset
  // parameters into a member at the start of fit), so concurrent fits never share one.
  std::vector<std::unique_ptr<Learner>> owned;
  std::vector<const Learner*> learners;
  for (int t = 0; t < std::max(1, opt.threads); ++t) {
    owned.push_back(info.make(p, pair.d0.schema()));
    learners.push_back(owned.back().get());
  }
  return audit_fits(learners, pair, opt);
}

AuditResult run_audit(const Learner& learner, const AuditPair& pair, const AuditOptions& opt) {
  return audit_fits({&learner}, pair, opt);
}

AuditResult run_audit(const ReleaseSampler& sample, const AuditOptions& opt) {
  require(opt.samples >= 4, "audit: samples must be >= 4, got ", opt.samples);
  require(opt.alpha > 0 && opt.alpha < 1, "audit: alpha must be in (0, 1), got ", opt.alpha);
  require(opt.threads >= 1, "audit: threads must be >= 1");
  auto fit_release = [&](int side, int64_t i, double* spent) { return sample(side, fit_seed(opt.seed, side, i), spent); };

  const auto t0 = std::chrono::steady_clock::now();
  const int64_t n = opt.samples;
  std::vector<uint64_t> out(static_cast<std::size_t>(2 * n));
  double max_spent = 0.0;
  std::exception_ptr error;
  std::atomic<bool> failed{false};  // read by every thread; `error` itself is touched only under the lock
#pragma omp parallel num_threads(opt.threads)
  {
    double local_spent = 0.0;
#pragma omp for schedule(dynamic, 512)
    for (int64_t j = 0; j < 2 * n; ++j) {
      if (failed.load(std::memory_order_relaxed)) continue;
      try {
        const int side = static_cast<int>(j / n);
        out[static_cast<std::size_t>(j)] = release_hash(fit_release(side, j % n, &local_spent), opt.resolution, opt.keep_continuous);
      } catch (...) {
#pragma omp critical(dpf_audit_error)
        {
          if (!error) error = std::current_exception();
          failed.store(true, std::memory_order_relaxed);
        }
      }
    }
#pragma omp critical(dpf_audit_spent)
    max_spent = std::max(max_spent, local_spent);
  }
  if (error) std::rethrow_exception(error);

  // Selection half: indices [0, n/2); bounding half: [n/2, n).
  const int64_t n_sel = n / 2, n_test = n - n_sel;
  std::unordered_map<uint64_t, Counts> sel, test;
  for (int64_t i = 0; i < n; ++i) {
    auto& m = i < n_sel ? sel : test;
    ++m[out[static_cast<std::size_t>(i)]].a;
    ++m[out[static_cast<std::size_t>(n + i)]].b;
  }
  AuditResult r;
  r.n_half = n_test;
  std::unordered_set<uint64_t> distinct;
  for (uint64_t h : out) distinct.insert(h);
  r.distinct_outputs = static_cast<int64_t>(distinct.size());
  r.epsilon_claimed = std::isnan(opt.claimed_epsilon) ? max_spent : opt.claimed_epsilon;
  const double a4 = opt.alpha / 4;
  const Bounded eps = bound_both(sel, test, n_sel, n_test, a4, epsilon_score);
  r.epsilon_lb = eps.value;
  Bounded verdict = eps;
  if (opt.claimed_delta > 0) {
    require(!std::isnan(opt.claimed_epsilon), "audit: the (epsilon, delta) mode needs the claimed epsilon");
    require(opt.claimed_delta < 1, "audit: the claimed delta must be in (0, 1), got ", opt.claimed_delta);
    verdict = bound_both(sel, test, n_sel, n_test, a4, delta_score(r.epsilon_claimed));
    r.delta_mode = true;
    r.delta_claimed = opt.claimed_delta;
    r.delta_lb = verdict.value;
  }
  r.direction = verdict.direction;
  r.k_num = verdict.num;
  r.k_den = verdict.den;
  r.flagged = r.delta_mode ? r.delta_lb > r.delta_claimed : r.epsilon_lb > r.epsilon_claimed;
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  r.seconds = secs;
  r.fits_per_second = secs > 0 ? static_cast<double>(2 * n) / secs : 0.0;

  // The event in words, with one of its outputs refitted from its seed.
  r.event = describe_event(r, verdict.event, out, n, [&](int side, int64_t i) {
    return render(fit_release(side, i, nullptr), opt.resolution);
  });
  return r;
}

}  // namespace dpf
