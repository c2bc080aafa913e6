// A port of scikit-learn's make_classification (smooth-rdf.md §4.2; sklearn 1.2.1 semantics) drawing
// only from dpf::Rng, with our own Gaussian sampler (Marsaglia polar method). Statistically
// equivalent to scikit-learn's generator, not bit-identical (the paper gives no seed anyway, §4.2).
// Also the paper's synthetic datasets SynthA-G (smooth-rdf.md §4.1, Table 1) as dataset specs
// "synth-a" ... "synth-g", with optional overrides "synth-f:n=3000000" and "synth-a:seed=2".
#pragma once
#include <cstdint>
#include <string>

#include "core/data/dataset.hpp"
#include "core/privacy/rng.hpp"

namespace dpf {

struct MakeClassificationParams {
  std::size_t n_samples = 100;
  int n_features = 20;
  int n_informative = 2;
  int n_redundant = 2;
  int n_repeated = 0;
  int n_classes = 2;
  int n_clusters_per_class = 2;
  double flip_y = 0.01;
  double class_sep = 1.0;
  bool hypercube = true;
  bool shuffle = true;
};

// Standard normal draw (Marsaglia polar method; the second value of each pair is discarded so a
// draw is a pure function of the stream position).
double standard_normal(Rng& rng);

// Columns f0..f{F-1} (numeric, public domain = [min, max] of the generated column), classes "0".."K-1".
Dataset make_classification(const MakeClassificationParams& p, Rng& rng, const std::string& name);

// True for "synth-a" ... "synth-g" with or without ":key=value[,key=value]" (keys n, seed).
inline bool is_synthetic_spec(const std::string& spec) {
  return spec.size() >= 7 && spec.compare(0, 6, "synth-") == 0 && spec[6] >= 'a' && spec[6] <= 'g' &&
         (spec.size() == 7 || spec[7] == ':');
}

// SynthA-G of smooth-rdf.md §4.1: n_samples 30000 (or n=...), n_redundant = 0, defaults otherwise;
// the generator seed is 0 unless seed=... is given (the paper's seeds are unknown, §4.2).
Dataset make_synthetic(const std::string& spec);
// n_informative and useless features of SynthA-G ('a'..'g'); throws for other letters.
MakeClassificationParams synthetic_params(char letter);

}  // namespace dpf
