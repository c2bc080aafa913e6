// The audit matrix (make audit; dpforest audit --matrix FILE): runs every entry of a matrix file
// (configs/audit/matrix.yaml) in its published and strict variants (or those its `variants` key lists) at
// every listed epsilon, and writes
// <out>/audit.csv (one row per audit) and <out>/audit.md (a readable table), then (unless the file says
// `mechanisms: false`) the mechanism-level cases of mechanisms.hpp. A configuration whose a-priori
// bound has a delta is audited in the (epsilon, delta) mode (audit.hpp). A configuration labelled
// epsilon-DP or (epsilon, delta)-DP that is flagged, or a mechanism case off its expectation, is an
// ALARM; a model whose release cannot be read is listed as such.
#pragma once
#include <string>

namespace dpf {

struct MatrixReport {
  int audits = 0, alarms = 0, flagged_published = 0, not_auditable = 0;
  double seconds = 0;
  std::string csv_path, md_path;
};

MatrixReport run_audit_matrix(const std::string& matrix_file, const std::string& out_dir, int threads);

}  // namespace dpf
