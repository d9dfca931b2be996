#pragma once
// FGBILU (seed 000): block ILU(0) of a structured 7-point block matrix, with
// the factorisation of Eq. 1 and the two triangular sweeps of Eq. 2, in four
// variants that compute the same mathematics:
//   seq  natural order, one cell at a time (the paper's sequential baseline);
//   omp  coarse-grained wavefront, one cell per OpenMP thread (Algorithms 2, 3);
//   acc  fine-grained, one thread per block element (Algorithms 4-6): host loops
//        on the host backend, CUDA kernels on the cuda backend;
//   cl   CUDA only: one fused kernel per hyperplane with shared memory
//        (Algorithms 8-10), n <= 32.
// The residual of the correction steps (Eq. 3) is Algorithm 7.
#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "element_kernels.hpp"
#include "solvers/core/array.hpp"
#include "solvers/core/stage_groups.hpp"
#include "solvers/krylov/preconditioner.hpp"
#include "solvers/matrix/stencil7_matrix.hpp"

namespace tb::fgbilu {

enum class Variant { seq, omp, acc, cl };
std::string_view to_string(Variant v);
Variant parse_variant(std::string_view name);  // tb::Error lists the allowed names

// How the cl variant launches its kernels: one launch per hyperplane (the
// paper's form of Algorithms 9, 10) or one per whole sweep, the plane order
// then kept by completion counters on the device (cuda/kernels.cu).
enum class Launch { plane, sweep };
std::string_view to_string(Launch l);
Launch parse_launch(std::string_view name);
// sweep for cl (the faster at every cube measured: docs/fgbilu.md), plane for
// the others.
Launch default_launch(Variant v);

// How solve() issues its kernels on cuda: launched at every application, or
// recorded as a CUDA graph on the first application to a pair of vectors
// (r, z) and replayed after, one launch per application whatever the variant
// and launch (docs/fgbilu.md, "Recorded sweeps"). Off by default: a graph
// removes the host's launch cost, and whether that shortens a solve on a
// given device is for the benchmark to say.
enum class Apply { launches, graph };
// Pairs of vectors a factorisation records at most; further pairs launch
// their kernels. BiCGStab applies M to two pairs, CG and Richardson to one,
// (F)GMRES(m) to up to m.
inline constexpr std::size_t max_recorded_solves = 8;

namespace kernels::cuda {
struct Graph;
}

// variant=auto on the host: the OpenMP wavefront when a hyperplane averages at
// least host_plane_grain diagonal-block entries and more than one thread may
// run, since each plane ends in a barrier (a futex wake-up with passive waits);
// the sequential sweep otherwise (the same factors bit for bit): thin planes
// pay more for their barriers than they share out (docs/fgbilu.md, "Choosing
// the host variant").
inline constexpr long host_plane_grain = 16384;
Variant host_variant_for(const GridShape& g, int block_size, int threads);

class Factorization {
 public:
  // launch = sweep is for variant cl only, apply = graph for backend cuda
  // (tb::Error otherwise).
  Factorization(Variant variant, Backend backend, Launch launch, Apply apply = Apply::launches);
  Factorization(Variant variant, Backend backend) : Factorization(variant, backend, default_launch(variant)) {}
  // Symbolic: the grid (inferred from the pattern, or given), the schedule, the
  // 7-point layout and the device arrays; then the numeric factorisation.
  void setup(const BsrMatrix& a, const GridShape* given = nullptr);
  // Numeric only: new values on the pattern of setup, then Eq. 1.
  void update(const BsrMatrix& a);
  // The same from values already on this factorisation's backend (a view of
  // a BSR matrix on the pattern of setup, assembled there): the 7-point
  // layout gathered where the values are (kernels::gather_blocks, through
  // the map of setup kept on the backend), then Eq. 1. Nothing moves to or
  // from the host, nothing is allocated; matrix().values keep the values of
  // the last setup() or update().
  void update_in_place(const BsrView& a);
  // Eq. 1 on the values held; throws naming the cell (i,j,k) of a singular or
  // non-finite diagonal block.
  void factor();
  // z = M^{-1} r (Eq. 2, two sweeps); vectors on the backend, natural order.
  // With apply = graph the first solve on (r, z) records its launches and
  // replays them; later ones replay.
  void solve(const double* r, double* z) const;
  // r = b - A x (Algorithm 7).
  void residual(const double* b, const double* x, double* r) const;

  Variant variant() const { return variant_; }
  Launch launch() const { return launch_; }
  Apply apply() const { return apply_; }
  // apply = graph: the pairs (r, z) recorded so far.
  std::size_t recorded_solves() const { return recorded_.size(); }
  Backend backend() const { return backend_; }
  const Stencil7Matrix& matrix() const { return host_; }
  // The factorised, inverted diagonal blocks d, copied to the host in natural cell order.
  std::vector<double> inverted_diagonal() const;
  index_t rows() const { return host_.cells() * host_.block_size; }

 private:
  Stencil7View view() const;
  PlaneScratch scratch() const;
  void throw_singular(index_t q) const;
  void copy_values_to_backend();
  void launch_solve(const double* r, double* z) const;
  void solve_recorded(const double* r, double* z) const;

  struct ReleaseGraph {
    void operator()(kernels::cuda::Graph* g) const noexcept;
  };
  struct RecordedSolve {
    const double* r;
    double* z;
    std::unique_ptr<kernels::cuda::Graph, ReleaseGraph> graph;
  };

  Variant variant_;
  Backend backend_;
  Launch launch_;
  Apply apply_;
  Stencil7Matrix host_;
  Stencil7Map map_;
  std::vector<index_t> row_ptr_, col_idx_;  // the pattern of setup, for update's check
  Array<double> coef_, d_;
  Array<index_t> natural_, position_, neighbour_;
  Array<index_t> map_on_backend_;  // map_.bsr_block on the backend (update_in_place)
  mutable Array<double> s_, z_;
  Array<index_t> flag_;         // cuda: the non-finite check's result
  StageSchedule plane_groups_;  // launch = sweep: the hyperplanes as stages of one launch
  // apply = graph: one graph per pair (r, z), recorded on the arrays of setup
  // (which update keeps), dropped by the next setup; capacity reserved there.
  mutable std::vector<RecordedSolve> recorded_;
};

// The registry's fgbilu: variant auto picks omp on the host and cl on CUDA.
// nx, ny, nz > 0 give the grid instead of inferring it. launch applies to cl;
// "auto" is default_launch. graph: Apply::graph (cuda only).
std::unique_ptr<Preconditioner> make_preconditioner(std::string_view variant, GridShape given,
                                                    std::string_view launch = "auto", bool graph = false);

}  // namespace tb::fgbilu
