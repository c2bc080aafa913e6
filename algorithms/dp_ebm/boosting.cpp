#include "algorithms/dp_ebm/boosting.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <numeric>

#include "core/privacy/gdp.hpp"

namespace dpf::dp_ebm {

std::vector<int> random_cuts(int k, int max_leaves, bool missing_edge, Rng& rng) {
  // Candidate edges 1..k-1 (libebm PartitionRandomBoosting: the empty missing bin is dropped natively,
  // §6.3 step 1); the paper-era code also offered edge 0 (§10.6).
  std::vector<int> cand;
  for (int e = missing_edge ? 0 : 1; e < k; ++e) cand.push_back(e);
  const std::size_t s = std::min<std::size_t>(static_cast<std::size_t>(std::max(max_leaves - 1, 0)), cand.size());
  for (std::size_t i = 0; i < s; ++i) std::swap(cand[i], cand[i + rng.below(cand.size() - i)]);
  std::vector<int> cuts(cand.begin(), cand.begin() + static_cast<std::ptrdiff_t>(s));
  std::sort(cuts.begin(), cuts.end());
  if (!cuts.empty() && cuts.front() == 0) cuts.erase(cuts.begin());  // the missing bin's leaf is empty
  return cuts;
}

std::vector<std::vector<double>> boost(const std::vector<FeatureBins>& bins,
                                       const std::vector<std::vector<int32_t>>& row_bin, std::span<const double> y,
                                       const BoostSpec& spec, Rng& rng, PrivacyLedger& ledger,
                                       PrivacyLedger::ScopeId scope) {
  const std::size_t d = bins.size(), n = y.size();
  std::vector<std::vector<double>> score(d);
  for (std::size_t j = 0; j < d; ++j) score[j].assign(bins[j].n_bins(), 0.0);
  // §6.2: one random permutation of the features at step 0, reused by every pass.
  std::vector<std::size_t> order(d);
  std::iota(order.begin(), order.end(), std::size_t{0});
  if (!spec.natural_order) rng.shuffle(std::span<std::size_t>(order));

  // Row state, F = 0 at the start (§6.1). Classification keeps E_i = exp(-F_i): a step adds the same u
  // to every row of a bin, so E_i is multiplied by the bin's exp(-u) and p_i = 1 / (1 + E_i) needs no
  // exp per row. Regression keeps F_i.
  std::vector<double> state(n, spec.regression ? 0.0 : 1.0);
  std::vector<double> hist, factor;  // this step's per-bin gradient sums; the previous step's per-bin move
  std::vector<double> move;          // classification: the previous step's per-bin u (factor = exp(-u))
  // A row whose E_i would leave (0, inf) (|F_i| beyond about 709, reached by large noisy steps at small
  // epsilon) continues in log space: log_f[i] = F_i, flagged by in_log[i]. The library keeps F itself,
  // so this is its arithmetic; rows that never leave the range keep the exp form bit for bit.
  std::vector<double> log_f;
  std::vector<uint8_t> in_log;
  std::size_t log_rows = 0;
  // Row i's product with exp(-u) left (0, inf): F_i = -log E_i + u from here on; returns p_i.
  auto to_log = [&](std::size_t i, double u) __attribute__((noinline, cold)) {
    if (in_log.empty()) {
      in_log.assign(n, 0);
      log_f.assign(n, 0.0);
    }
    in_log[i] = 1;
    ++log_rows;
    log_f[i] = -std::log(state[i]) + u;
    return 1.0 / (1.0 + std::exp(-log_f[i]));
  };
  const std::vector<int32_t>* prev_bins = nullptr;
  const double clip = spec.clip;
  const uint64_t steps = static_cast<uint64_t>(spec.max_rounds) * d;
  for (uint64_t t = 0; t < steps; ++t) {
    const std::size_t j = order[t % d];
    const std::size_t k = bins[j].n_bins();
    const std::vector<int32_t>& rb = row_bin[j];
    hist.assign(k, 0.0);
    // One pass: apply the previous step's move, then sum this feature's gradients per bin (§6.3 step 3:
    // log-loss g = p - y, RMSE g = F - y).
    const int32_t* pb = prev_bins != nullptr ? prev_bins->data() : nullptr;
    const int32_t* row_b = rb.data();
    double* h = hist.data();
    if (spec.regression) {
      for (std::size_t i = 0; i < n; ++i) {
        if (pb) state[i] += factor[static_cast<std::size_t>(pb[i])];
        double g = state[i] - y[i];
        if (clip > 0.0) g = std::clamp(g, -clip, clip);
        h[row_b[i]] += g;
      }
    } else if (log_rows == 0 && pb == nullptr) {
      for (std::size_t i = 0; i < n; ++i) h[row_b[i]] += 1.0 / (1.0 + state[i]) - y[i];
    } else if (log_rows == 0) {
      for (std::size_t i = 0; i < n; ++i) {
        const auto b = static_cast<std::size_t>(pb[i]);
        const double next = state[i] * factor[b];
        // One unsigned comparison for 0 < next < inf (NaN and negatives fail too): the bit patterns of
        // the positive finite doubles are exactly 1 .. 0x7fefffffffffffff.
        if (std::bit_cast<uint64_t>(next) - 1 >= uint64_t{0x7fefffffffffffff}) [[unlikely]] {
          h[row_b[i]] += to_log(i, move[b]) - y[i];
          continue;
        }
        state[i] = next;
        h[row_b[i]] += 1.0 / (1.0 + next) - y[i];
      }
    } else {
      for (std::size_t i = 0; i < n; ++i) {
        const auto b = pb ? static_cast<std::size_t>(pb[i]) : 0;
        double p;
        if (in_log[i]) {
          if (pb) log_f[i] += move[b];
          p = 1.0 / (1.0 + std::exp(-log_f[i]));
        } else {
          double e = state[i];
          if (pb) e *= factor[b];
          if (e > 0.0 && e < HUGE_VAL) {
            state[i] = e;
            p = 1.0 / (1.0 + e);
          } else {
            p = to_log(i, move[b]);
          }
        }
        h[row_b[i]] += p - y[i];
      }
    }
    // §6.3 steps 2, 4, 5: random leaves, one noisy lr-scaled sum per leaf, divided by the leaf's noisy
    // binning weight (post-processing of the binning release), negated.
    const std::vector<int> cuts = random_cuts(static_cast<int>(k), spec.max_leaves, spec.missing_edge, rng);
    factor.assign(k, spec.regression ? 0.0 : 1.0);
    move.assign(k, 0.0);
    std::size_t begin = 0;
    for (std::size_t l = 0; l <= cuts.size(); ++l) {
      const std::size_t end = l < cuts.size() ? static_cast<std::size_t>(cuts[l]) : k;
      double g = 0.0, w = 0.0;
      for (std::size_t b = begin; b < end; ++b) {
        g += hist[b];
        w += bins[j].weight[b];
      }
      // §4.1: sigma_step = lr R w_max sqrt(T) / mu*, i.e. a (mu* / sqrt T)-GDP Gaussian on lr G.
      const double noisy = gdp_gaussian_mechanism(rng, spec.learning_rate * g, spec.sensitivity, spec.mu_step);
      const double u = -noisy / w;
      for (std::size_t b = begin; b < end; ++b) {
        score[j][b] += u;
        factor[b] = spec.regression ? u : std::exp(-u);
        move[b] = u;
      }
      begin = end;
    }
    ledger.charge_gdp(scope, "dp-ebm-leaf-sums", spec.mu_step, spec.sensitivity, spec.certified);
    prev_bins = &rb;
  }
  return score;
}

}  // namespace dpf::dp_ebm
