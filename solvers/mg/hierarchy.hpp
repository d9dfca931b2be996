#pragma once
// The geometric hierarchy of a structured system, on the host: the finest
// level is the matrix's stencil (structured_operator.hpp), each coarser level
// the Galerkin product P^T A P of the one above (a 27-point box in 3D, 9 in
// 2D). Which directions a level coarsens is decided once, from the first
// values: a direction is coarsened when its coupling (the stencil collapsed
// onto it, summed over the cells) is at least `semicoarsening` times the
// strongest direction's, so a stretched grid coarsens only across its thin
// cells until they are as wide as the others (semi-coarsening). build() does
// that and sizes everything; refresh() redoes the numbers for new values on
// the same pattern without allocating.
#include <vector>

#include "coarse_inverse.hpp"
#include "structured_operator.hpp"

namespace tb::mg {

// The largest eigenvalue's estimate: Lanczos steps and the factor on the
// largest Ritz value (PETSc's Chebyshev smoother takes 1.1 of its estimate too).
inline constexpr int lanczos_steps = 12;
inline constexpr double lanczos_margin = 1.1;

struct HierarchyOptions {
  int max_levels = 0;  // 0: until the coarsest level has at most coarse_size cells
  index_t coarse_size = 512;
  double semicoarsening = 0.5;
  // The finest level's remainder enters the Galerkin product (else only the
  // finest level's smoother and residual see it).
  bool remainder_in_galerkin = true;
};

struct Level {
  StructuredIndex grid;
  StencilPoints points;
  bool box = false;
  std::vector<double> coef;  // coarse levels; the finest level's are the operator's
  std::vector<double> dinv;
  double largest_eigenvalue = 0.0;  // of D^{-1} A, estimated (Hierarchy::largest_eigenvalue)
  // The transfer to the next coarser level; none coarsened on the coarsest.
  bool coarsened[3] = {false, false, false};
  std::vector<double> weight[3];  // per index of each coarsened direction
};

class Hierarchy {
 public:
  // `grid` null: inferred from the pattern (infer_grid).
  void build(const BsrMatrix& a, const StructuredIndex* grid, const HierarchyOptions& o);
  void refresh(const BsrMatrix& a);

  int levels() const { return int(levels_.size()); }
  const Level& level(int l) const { return levels_[std::size_t(l)]; }
  const StructuredOperator& finest() const { return fine_; }
  // Host pointers: level l's operator (the finest with its remainder) and the
  // transfer from level l to l + 1.
  StencilView view(int l) const;
  TransferView transfer(int l) const;
  // The coarsest level is solved by its dense inverse (else by smoothing sweeps).
  bool direct_coarse() const { return direct_; }
  const CoarseInverse& coarse() const { return coarse_; }
  // Cells over all levels per finest cell, and stencil coefficients likewise.
  double grid_complexity() const;
  double operator_complexity() const;

 private:
  void coarsen(int l);
  void numeric(int l);
  double gershgorin_bound(int l) const;
  double largest_eigenvalue(int l);

  HierarchyOptions options_;
  StructuredOperator fine_;
  std::vector<Level> levels_;
  CoarseInverse coarse_;
  bool direct_ = false;
  std::vector<double> lanczos_u_, lanczos_q_, lanczos_q_prev_, lanczos_w_, zeros_;  // largest_eigenvalue's
};

}  // namespace tb::mg
