// The DiPriMe papers' depth rule (dipreme.md §3, §6.1): d = floor(log_base(n / (occ · chunks))),
// with n the training rows, occ the expected leaf occupancy (25; 10 for Banknote) and chunks = N_T
// for partitioned DiPriMe forests (d_part), 1 otherwise (d_full, base 2; d_mult, base 5). Algorithms
// take it as the parameter `occupancy` (0 = use max_depth), so one config covers datasets of
// different sizes. n is treated as public (dipreme.md §4 P11).
#pragma once
#include <algorithm>
#include <cmath>
#include <cstddef>

#include "algorithms/params.hpp"

namespace dpf {

inline int occupancy_depth(std::size_t n_train, int occupancy, double base, int chunks) {
  const double ratio = static_cast<double>(n_train) / (static_cast<double>(occupancy) * chunks);
  // + 1e-9 so that exact powers (e.g. n/occ = 125, base 5) are not lost to rounding.
  return std::max(1, static_cast<int>(std::floor(std::log(std::max(ratio, 1.0)) / std::log(base) + 1e-9)));
}

inline ParamSpec occupancy_param(const char* rule) {
  return {"occupancy", ParamType::kInt, "0", 0, 1e9, false, {},
          std::string("expected leaf occupancy: > 0 sets the depth to ") + rule +
              " from the training rows (dipreme.md §6.1); 0 uses max_depth"};
}

}  // namespace dpf
