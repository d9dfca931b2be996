#pragma once
// Asynchronous ILU(0) of seed 001: the Chow-Patel fixed-point factorization,
// scalar (Alg. 3/4, Eq. 10) or block (Eq. 18/22, diagonal blocks inverted
// exactly), applied by asynchronous triangular sweeps (Alg. 2 / Alg. 5).
// The class chains the kernels of kernels.hpp; it holds no thread or device
// code of its own.
#include <memory>
#include <vector>

#include "diagnostics.hpp"
#include "factor_pattern.hpp"
#include "kernels.hpp"
#include "scalar_pattern.hpp"
#include "solvers/core/array.hpp"
#include "solvers/core/backend.hpp"
#include "solvers/matrix/bsr.hpp"

namespace tb::async_ilu {

struct Options {
  bool block = true;                      // false: scalar ILU(0) on the scalar pattern of A's blocks
  int build_sweeps = 1;                   // factorization sweeps; 0 = exact (sequential BILU(0), host only)
  int apply_sweeps = 3;                   // sweeps of each triangular solve; 0 = exact substitution (host only)
  int chunk = 384;                        // OpenMP dynamic chunk in block rows (scalar variant: chunk * b rows)
  GpuRows gpu_rows = GpuRows::automatic;  // the CUDA kernels' rows: a thread or a group of lanes each
  Schedule schedule = Schedule::asynchronous;
  bool reuse = false;  // start from the previous factors instead of A (a time step's predecessor)
  bool diagnostics = false;
};

// Throws tb::Error naming the parameter when an option is out of range.
void validate(const Options& o);

class AsyncIlu {
 public:
  explicit AsyncIlu(Options o);
  // Symbolic work for A's pattern (products of Eq. 18, scalar expansion,
  // device copies), then the numeric factorization.
  void setup(const BsrMatrix& a, Backend backend);
  // Numeric only: build_sweeps sweeps from A (or from the previous factors
  // with reuse). Throws naming the block row whose U_ii is singular.
  void factor(const BsrMatrix& a);
  // The same from A's values already on the backend of setup, on A's block
  // pattern as set up (a system assembled there): the initial guess and the
  // sweeps read them where they lie, no copy is kept, and nothing crosses
  // between host and device but the singular-pivot flag that factor() reads
  // too. Only where factors_in_place(); throws as factor().
  void factor_in_place(const double* values);
  // The refreshes that run wholly on the backend: the block variant with
  // build and apply sweeps, without diagnostics (the scalar expansion, the
  // exact variants and the diagnostics work on the host).
  bool factors_in_place() const;
  // z = (LU)^{-1} r approximately, apply_sweeps sweeps per triangle, from zero.
  // Pointers on the backend given to setup.
  void apply(const double* r, double* z) const;

  bool is_set_up() const { return set_up_; }
  const Options& options() const { return opts_; }
  Backend backend() const { return backend_; }
  index_t rows() const { return pattern_.rows(); }
  // Filled by factor() when options().diagnostics is set.
  const Diagnostics& diagnostics() const { return diag_; }
  // Host copies of the factors on the working pattern (A's, or its scalar
  // expansion): L below and U on/above the diagonal, and U_ii^{-1} per row.
  // The pattern's values are A's as of the last factor().
  const BsrMatrix& pattern() const { return pattern_; }
  std::vector<double> lu_values() const { return lu_.to_host(); }
  std::vector<double> dinv_values() const { return dinv_.to_host(); }

 private:
  FactorView view_of(bool device) const;
  void load_values(const BsrMatrix& a);
  void set_initial_guess(const FactorView& f);
  index_t run_sweeps(const FactorView& f, int sweeps);
  void throw_if_singular(index_t bad) const;
  void run_exact_on_host();
  SweepSplit split() const;

  Options opts_;
  Backend backend_ = Backend::host;
  index_t scalar_rows_per_block_ = 1;  // A's block size
  bool set_up_ = false;
  bool factored_ = false;
  BsrMatrix pattern_;  // the working pattern, its values A's as of the last factor()
  ScalarPattern scalar_;
  FactorPattern symbolic_;  // host copy; the host kernels read it directly
  // On the backend: the pattern (CUDA only; the host uses the vectors above)
  // and the state.
  Array<index_t> row_ptr_, col_idx_, diag_pos_, prod_ptr_, prod_l_, prod_u_;
  Vector a_, lu_, dinv_, lu_next_, dinv_next_;
  Array<index_t> bad_row_;  // CUDA: where the kernels report a singular U_ii
  mutable Vector y_, work_;
  Diagnostics diag_;
};

}  // namespace tb::async_ilu
