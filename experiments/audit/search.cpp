#include "experiments/audit/search.hpp"

#include <sstream>

#include "core/privacy/rng.hpp"
#include "core/util/error.hpp"

namespace dpf {

SearchResult search_pair(const std::string& algorithm, const std::map<std::string, std::string>& params,
                         const SearchOptions& opt) {
  require(opt.candidates >= 1 && opt.max_rows >= 1, "audit search: candidates and max_rows must be >= 1");
  Rng rng = Rng(opt.seed).derive("pair-search");
  SearchResult best;
  best.screened_lb = -1.0;
  for (int c = 0; c < opt.candidates; ++c) {
    auto row = [&] {
      return std::vector<double>{(static_cast<double>(rng.below(10)) + 0.5) / 10.0, static_cast<double>(rng.below(2))};
    };
    std::vector<std::vector<double>> d0;
    const int n = 1 + static_cast<int>(rng.below(static_cast<uint64_t>(opt.max_rows)));
    for (int i = 0; i < n; ++i) d0.push_back(row());
    std::vector<std::vector<double>> d1 = d0;
    d1.insert(d1.begin() + static_cast<long>(rng.below(d1.size() + 1)), row());
    std::ostringstream name;
    name << "search #" << c << ": D = {";
    for (std::size_t i = 0; i < d0.size(); ++i) name << (i ? ", " : "") << "(" << d0[i][0] << ", " << d0[i][1] << ")";
    name << "}, D' = {";
    for (std::size_t i = 0; i < d1.size(); ++i) name << (i ? ", " : "") << "(" << d1[i][0] << ", " << d1[i][1] << ")";
    name << "}";
    AuditPair p;
    p.name = name.str();
    p.description = "found by randomised search";
    p.d0 = tiny_dataset({{0, 1}}, 2, d0, "search");
    p.d1 = tiny_dataset({{0, 1}}, 2, d1, "search");
    AuditOptions o;
    o.samples = opt.screen_samples;
    o.alpha = 0.05;
    o.threads = opt.threads;
    o.seed = hash_combine(opt.seed, static_cast<uint64_t>(c));
    o.resolution = opt.resolution;
    o.keep_continuous = opt.keep_continuous;
    o.claimed_epsilon = 0.0;
    const AuditResult r = run_audit(algorithm, params, p, o);
    ++best.screened;
    if (r.epsilon_lb > best.screened_lb) {
      best.screened_lb = r.epsilon_lb;
      best.pair = std::move(p);
    }
  }
  return best;
}

}  // namespace dpf
