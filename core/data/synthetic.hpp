// Deterministic synthetic datasets for benchmarks and tests, named by a spec string so that every
// tool (load_dataset, `dpforest export-dataset`, the bench driver) produces exactly the same rows:
//
//   synthetic:classification:n=30000,d=10,seed=1[,informative=5,noise=0.3]
//
// classification: row r draws x_j ~ N(0, 1) clamped to the public domain [-6, 6] (j = 0..d-1) and
//   z ~ N(0, 1) from its own stream derive(seed, r), so the first m rows of n=M are the rows of n=m.
//   The weights w_j ~ N(0, 1) of the first `informative` features (0 for the others) come from a
//   separate stream of the seed; y = 1 iff w.x / |w| + noise * z > 0 (a noisy linear threshold rule,
//   about 90% Bayes accuracy at noise 0.3). Classes "0", "1"; features x0..x{d-1}.
// friedman1, friedman2, friedman3: Friedman's regression benchmarks (core/data/friedman.hpp).
// Gaussians are our own Box-Muller on Rng::uniform_open (never the <random> distributions).
#pragma once
#include <cstdint>
#include <string>

#include "core/data/dataset.hpp"

namespace dpf {

struct SyntheticSpec {
  std::string kind = "classification";
  std::size_t n = 1000;
  int d = 10;
  uint64_t seed = 1;
  int informative = -1;  // -1: min(d, 5)
  double noise = 0.3;
};

inline constexpr double kSyntheticDomain = 6.0;  // public domain of every feature: [-6, 6]

// True when `spec` starts with "synthetic:".
bool is_synthetic_dataset(const std::string& spec);
// Parses "synthetic:<kind>:k=v,..."; throws dpf::Error naming the spec and the bad key or value.
SyntheticSpec parse_synthetic_spec(const std::string& spec);
// The dataset of a spec; its name is the spec string as given.
Dataset make_synthetic_dataset(const std::string& spec);
Dataset make_synthetic_dataset(const SyntheticSpec& s, const std::string& name);

}  // namespace dpf
