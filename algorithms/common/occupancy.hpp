// Depth rules that read the training-set size n: the DiPriMe papers' occupancy rule (dipreme.md §3,
// §6.1), d = floor(log_base(n / (occ · chunks))), with occ the expected leaf occupancy (25; 10 for
// Banknote) and chunks = N_T for partitioned DiPriMe forests (d_part), 1 otherwise (d_full, base 2;
// d_mult, base 5); and any other rule that needs n (JPW's depth, smooth-rdf.md §2.1).
//
// Privacy (privacy.md §6.4; dipreme.md §4 P11). Every row of this harness declares add/remove-one
// neighbours, under which n itself is private: a depth computed from the exact n changes with one
// added row, and the tree structure reveals it (an audit bounds the loss at 8.6 for DiPriMe). The
// papers treat n as public, so their rule runs as published in the non-strict variants, whose
// privacy status says so. Strict variants pay for n: PrivateRowCount releases ñ = n + Lap(1/ε_n)
// through the secure Laplace mechanism (Dwork et al. 2006; sensitivity 1 under add/remove), charged
// to the fit's ledger at its root, and the rule is evaluated on max(ñ, 1) — post-processing. The
// rest of the algorithm gets ε − ε_n, so the total stays ε.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <string>

#include "algorithms/common/params.hpp"
#include "algorithms/common/shared_params.hpp"
#include "core/tree/model.hpp"

namespace dpf {

inline int occupancy_depth(double n_train, int occupancy, double base, int chunks) {
  const double ratio = n_train / (static_cast<double>(occupancy) * chunks);
  // + 1e-9 so that exact powers (e.g. n/occ = 125, base 5) are not lost to rounding; capped at 40,
  // the largest max_depth any algorithm accepts (a noisy n can be large when epsilon_n is tiny).
  const double d = std::floor(std::log(std::max(ratio, 1.0)) / std::log(base) + 1e-9);
  return std::clamp(static_cast<int>(std::min(d, 40.0)), 1, 40);
}

inline ParamSpec occupancy_param(const char* rule) {
  return param::count("occupancy", 0, 0, 1e9,
                      std::string("expected leaf occupancy: > 0 sets the depth to ") + rule +
                          " from the training rows (dipreme.md §6.1); 0 uses max_depth. Published variants read the "
                          "exact n (not epsilon-DP under add/remove); strict variants read a noisy n paid with 5 % of "
                          "epsilon");
}

// The published variants' status sentence for the occupancy rule, appended when the rule is on: it reads
// `what` (the exact training-set size), which is not private under add/remove-one (dipreme.md §4 P11).
inline std::string with_occupancy_note(std::string status, const Params& p, const char* what) {
  if (p.get_int("occupancy") > 0)
    status += std::string("; the occupancy depth rule reads ") + what + ", private under add/remove-one (P11)";
  return status;
}

// The share of epsilon a strict variant spends on the noisy n when a depth rule needs n. A constant, not
// a parameter, so that adding it left every existing cell id (and so every seed) unchanged. Depth rules
// are logarithmic in n: at epsilon = 1 the noise Lap(20) exceeds 100 rows with probability e^-5 < 0.01,
// so the depth differs from the exact rule's only for n within a few dozen rows of a step (a factor 2
// apart for log2, 5 for log5).
inline constexpr double kNEpsilonShare = 0.05;

// The training-set size a depth rule may read. Published (strict = false): the exact n, no charge.
// Strict: ñ = max(1, n + Lap(1/ε_n)), ε_n = kNEpsilonShare · epsilon, charged to ctx.ledger's root as
// "laplace-n (depth rule)"; epsilon_left() is then epsilon − ε_n.
class RowCountForDepth {
 public:
  RowCountForDepth(FitContext& ctx, std::size_t n, double epsilon, bool strict);
  double n() const { return n_; }
  double epsilon_left() const { return epsilon_left_; }
  double epsilon_n() const { return epsilon_n_; }

 private:
  double n_ = 0.0, epsilon_left_ = 0.0, epsilon_n_ = 0.0;
};

}  // namespace dpf
