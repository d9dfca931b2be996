#include "fgbilu.hpp"

#include <algorithm>
#include <optional>
#include <string>

#include "kernels.hpp"
#include "solvers/core/cuda_call.hpp"
#include "solvers/core/error.hpp"
#include "solvers/core/threading.hpp"

namespace tb::fgbilu {

std::string_view to_string(Variant v) {
  switch (v) {
    case Variant::seq:
      return "seq";
    case Variant::omp:
      return "omp";
    case Variant::acc:
      return "acc";
    case Variant::cl:
      return "cl";
  }
  return "?";
}

Variant parse_variant(std::string_view name) {
  for (Variant v : {Variant::seq, Variant::omp, Variant::acc, Variant::cl})
    if (name == to_string(v)) return v;
  throw Error("fgbilu: unknown variant '" + std::string(name) + "' (allowed: seq, omp, acc, cl)");
}

std::string_view to_string(Launch l) { return l == Launch::plane ? "plane" : "sweep"; }

Launch parse_launch(std::string_view name) {
  for (Launch l : {Launch::plane, Launch::sweep})
    if (name == to_string(l)) return l;
  throw Error("fgbilu: unknown launch '" + std::string(name) + "' (allowed: plane, sweep)");
}

namespace {
void check_launch(std::string_view variant, Launch launch) {
  if (launch == Launch::sweep && variant != to_string(Variant::cl))
    throw Error("fgbilu(launch=sweep) is for variant=cl only (got variant=" + std::string(variant) + ")");
}
}  // namespace

Launch default_launch(Variant v) { return v == Variant::cl ? Launch::sweep : Launch::plane; }

Factorization::Factorization(Variant variant, Backend backend, Launch launch, Apply apply)
    : variant_(variant), backend_(backend), launch_(launch), apply_(apply) {
  check_launch(to_string(variant), launch);
  if (apply == Apply::graph && backend != Backend::cuda)
    throw Error("fgbilu(graph=true) records the solve as a CUDA graph: it needs backend=cuda");
  const bool host_only = variant == Variant::seq || variant == Variant::omp;
  if (host_only && backend == Backend::cuda)
    throw Error("fgbilu(variant=" + std::string(to_string(variant)) +
                ") runs on the host only; use variant=acc or cl on cuda");
  if (variant == Variant::cl && backend != Backend::cuda)
    throw Unsupported(
        "fgbilu(variant=cl) is CUDA-only (Algorithms 9, 10); use backend=cuda, or variant=acc on the host");
  if (backend == Backend::cuda && cuda_device_count() == 0)
    throw Error("fgbilu(variant=" + std::string(to_string(variant)) + ") on cuda: " + cuda_unavailable_reason());
}

void Factorization::setup(const BsrMatrix& a, const GridShape* given) {
  const GridShape shape = infer_grid_shape(a, given);
  host_ = stencil7_from_bsr(a, shape, &map_, variant_ == Variant::seq ? CellOrder::natural : CellOrder::wavefront);
  row_ptr_ = a.row_ptr;
  col_idx_ = a.col_idx;
  const WavefrontSchedule& s = host_.schedule;
  coef_ = Array<double>(backend_, host_.values.size());
  d_ = Array<double>(backend_, std::size_t(host_.cells()) * host_.block_entries());
  natural_ = Array<index_t>(backend_, std::span<const index_t>(s.natural));
  position_ = Array<index_t>(backend_, std::span<const index_t>(s.position));
  neighbour_ = Array<index_t>(backend_, std::span<const index_t>(s.neighbour));
  if (variant_ == Variant::acc) {
    s_ = Array<double>(backend_, 3 * std::size_t(s.max_plane_size()) * host_.block_entries());
    z_ = Array<double>(backend_, std::size_t(s.max_plane_size()) * host_.block_size);
  }
  if (backend_ == Backend::cuda) flag_ = Array<index_t>(backend_, 1);
  map_on_backend_ = Array<index_t>(backend_, std::span<const index_t>(map_.bsr_block));
  if (launch_ == Launch::sweep)
    plane_groups_ =
        StageSchedule(backend_, std::span<const index_t>(s.plane_ptr), kernels::cuda::cl_points(host_.block_size));
  recorded_.clear();  // recorded on the arrays replaced above
  if (apply_ == Apply::graph) recorded_.reserve(max_recorded_solves);
  copy_values_to_backend();
  factor();
}

void Factorization::update(const BsrMatrix& a) {
  if (coef_.empty()) return setup(a);
  if (a.row_ptr != row_ptr_ || a.col_idx != col_idx_)
    throw Error("fgbilu: the matrix pattern differs from the one at set-up; call setup() again");
  update_values(a, map_, host_);
  copy_values_to_backend();
  factor();
}

void Factorization::update_in_place(const BsrView& a) {
  if (coef_.empty()) throw Error("fgbilu: update_in_place() before setup()");
  if (a.block_size != host_.block_size || a.block_rows != host_.cells())
    throw Error("fgbilu: the matrix size changed since set-up; call setup() again");
  kernels::gather_blocks(backend_, map_on_backend_.data(), index_t(map_.bsr_block.size()),
                         index_t(host_.block_entries()), a.values, coef_.data());
  factor();
}

std::vector<double> Factorization::inverted_diagonal() const {
  const std::vector<double> stored = d_.to_host();
  std::vector<double> out(stored.size());
  const std::size_t nb = host_.block_entries();
  for (index_t r = 0; r < host_.cells(); ++r)
    std::copy_n(stored.begin() + std::ptrdiff_t(host_.schedule.position[r] * nb), nb,
                out.begin() + std::ptrdiff_t(r * nb));
  return out;
}

void Factorization::copy_values_to_backend() { coef_.copy_from_host(host_.values); }

Stencil7View Factorization::view() const {
  return {host_.block_size, host_.cells(), coef_.data(), natural_.data(), position_.data(), neighbour_.data()};
}

PlaneScratch Factorization::scratch() const {
  return {s_.data(), host_.schedule.max_plane_size() * index_t(host_.block_entries())};
}

void Factorization::throw_singular(index_t q) const {
  const auto [i, j, k] = host_.schedule.ijk[q];
  throw Error("fgbilu: singular or non-finite diagonal block at cell (i,j,k) = (" + std::to_string(i) + "," +
              std::to_string(j) + "," + std::to_string(k) + ") (0-based; block row " +
              std::to_string(host_.schedule.natural[q]) + ")");
}

void Factorization::factor() {
  const Stencil7View a = view();
  double* d = d_.data();
  const WavefrontSchedule& s = host_.schedule;
  if (variant_ == Variant::seq || variant_ == Variant::omp) {
    const index_t bad = variant_ == Variant::seq
                            ? kernels::ref::factor_natural(a, d)
                            : kernels::omp::factor_planes(a, d, s.plane_ptr.data(), s.num_planes());
    if (bad >= 0) throw_singular(bad);
    return;
  }
  if (launch_ == Launch::sweep) {
    const index_t bad = TB_CUDA_CALL(kernels::cuda::cl_factor_sweep(a, d, plane_groups_.view(), flag_.data()));
    if (bad >= 0) throw_singular(bad);
    return;
  }
  for (index_t p = 0; p < s.num_planes(); ++p) {
    const index_t b = s.plane_ptr[p], e = s.plane_ptr[p + 1];
    if (variant_ == Variant::cl) {
      TB_CUDA_CALL(kernels::cuda::cl_factor_plane(a, d, b, e));
      continue;
    }
    const index_t bad = kernels::acc_factor_plane(backend_, a, d, b, e, scratch());
    if (bad >= 0) throw_singular(bad);
  }
  if (backend_ == Backend::cuda) {  // the device kernels do not report per plane
    const index_t bad =
        TB_CUDA_CALL(kernels::cuda::first_non_finite_block(d, host_.cells(), host_.block_size, flag_.data()));
    if (bad >= 0) throw_singular(bad);
  }
}

void Factorization::ReleaseGraph::operator()(kernels::cuda::Graph* g) const noexcept {
  TB_CUDA_CALL(kernels::cuda::destroy(g));
}

void Factorization::solve(const double* r, double* z) const {
  if (apply_ == Apply::graph) return solve_recorded(r, z);
  launch_solve(r, z);
}

// The graph holds the launches' arguments, r and z among them: one per pair.
// The values behind every pointer may change (update, update_in_place refill
// the arrays of setup in place), the pointers may not.
void Factorization::solve_recorded(const double* r, double* z) const {
  for (const RecordedSolve& s : recorded_)
    if (s.r == r && s.z == z) return TB_CUDA_CALL(kernels::cuda::replay(s.graph.get()));
  if (recorded_.size() == max_recorded_solves) return launch_solve(r, z);
  TB_CUDA_CALL(kernels::cuda::begin_capture());
  try {
    launch_solve(r, z);
  } catch (...) {
    TB_CUDA_CALL(kernels::cuda::abandon_capture());
    throw;
  }
  recorded_.push_back(
      {r, z, std::unique_ptr<kernels::cuda::Graph, ReleaseGraph>(TB_CUDA_CALL(kernels::cuda::end_capture()))});
  TB_CUDA_CALL(kernels::cuda::replay(recorded_.back().graph.get()));
}

void Factorization::launch_solve(const double* r, double* z) const {
  const Stencil7View a = view();
  const double* d = d_.data();
  const WavefrontSchedule& s = host_.schedule;
  if (variant_ == Variant::seq) {
    kernels::ref::forward_natural(a, d, r, z);
    kernels::ref::backward_natural(a, d, z);
    return;
  }
  if (variant_ == Variant::omp) {
    kernels::omp::forward_sweep(a, d, s.plane_ptr.data(), s.num_planes(), r, z);
    kernels::omp::backward_sweep(a, d, s.plane_ptr.data(), s.num_planes(), z);
    return;
  }
  if (launch_ == Launch::sweep) {
    TB_CUDA_CALL(kernels::cuda::cl_forward_sweep(a, d, plane_groups_.view(), r, z));
    TB_CUDA_CALL(kernels::cuda::cl_backward_sweep(a, d, plane_groups_.view(), z));
    return;
  }
  double* zs = z_.data();
  for (index_t p = 0; p < s.num_planes(); ++p) {
    const index_t b = s.plane_ptr[p], e = s.plane_ptr[p + 1];
    if (variant_ == Variant::cl)
      TB_CUDA_CALL(kernels::cuda::cl_forward_plane(a, d, b, e, r, z));
    else
      kernels::acc_forward_plane(backend_, a, d, b, e, r, z, zs);
  }
  for (index_t p = s.num_planes() - 1; p >= 0; --p) {
    const index_t b = s.plane_ptr[p], e = s.plane_ptr[p + 1];
    if (variant_ == Variant::cl)
      TB_CUDA_CALL(kernels::cuda::cl_backward_plane(a, d, b, e, z));
    else
      kernels::acc_backward_plane(backend_, a, d, b, e, z, zs);
  }
}

void Factorization::residual(const double* b, const double* x, double* r) const {
  if (variant_ == Variant::seq) return kernels::ref::residual(view(), b, x, r);  // the sequential variant throughout
  kernels::residual(backend_, view(), b, x, r);
}

Variant host_variant_for(const GridShape& g, int block_size, int threads) {
  if (threads < 2) return Variant::seq;
  const long planes = long(g.ni) + g.nj + g.nk - 2;
  const long entries_per_plane = long(g.cells()) / std::max(1L, planes) * block_size * block_size;
  return entries_per_plane >= host_plane_grain ? Variant::omp : Variant::seq;
}

namespace {

Variant auto_variant(const BsrMatrix& a, const GridShape* given, Backend backend) {
  if (backend == Backend::cuda) return Variant::cl;
  return host_variant_for(infer_grid_shape(a, given), a.block_size, threading::budget());
}

class FgbiluPreconditioner final : public Preconditioner {
 public:
  // launch: empty for default_launch.
  FgbiluPreconditioner(std::string variant, GridShape given, std::optional<Launch> launch, Apply apply)
      : variant_(std::move(variant)), given_(given), launch_(launch), apply_(apply) {
    if (variant_ == "auto" || !launch_) return;  // auto: omp on the host, which ignores launch; cl on cuda
    check_launch(variant_, *launch_);
  }
  void setup(const BsrMatrix& a, Backend backend) override {
    const bool explicit_grid = given_.ni > 0 || given_.nj > 0 || given_.nk > 0;
    const GridShape* grid = explicit_grid ? &given_ : nullptr;
    const Variant v = variant_ == "auto" ? auto_variant(a, grid, backend) : parse_variant(variant_);
    f_ =
        std::make_unique<Factorization>(v, backend, v == Variant::cl && launch_ ? *launch_ : default_launch(v), apply_);
    f_->setup(a, grid);
  }
  void update(const BsrMatrix& a) override {
    if (!f_) throw Error("fgbilu: update() before setup()");
    f_->update(a);
  }
  bool updates_in_place() const override { return true; }
  void update_in_place(const BsrView& a) override {
    if (!f_) throw Error("fgbilu: update_in_place() before setup()");
    f_->update_in_place(a);
  }
  void apply(const Vector& r, Vector& z) const override {
    if (!f_) throw Error("fgbilu: apply() before setup()");
    const std::size_t n = std::size_t(f_->rows());
    if (r.size() != n || z.size() != n || r.backend() != f_->backend() || z.backend() != f_->backend())
      throw Error("fgbilu: vector size or backend does not match the factorisation (" + std::to_string(n) + " rows)");
    f_->solve(r.data(), z.data());
  }
  bool supports(Backend b) const override {
    if (variant_ == "auto" || variant_ == "acc") return true;
    return variant_ == "cl" ? b == Backend::cuda : b == Backend::host;
  }

 private:
  std::string variant_;
  GridShape given_;
  std::optional<Launch> launch_;
  Apply apply_;
  std::unique_ptr<Factorization> f_;
};

}  // namespace

std::unique_ptr<Preconditioner> make_preconditioner(std::string_view variant, GridShape given, std::string_view launch,
                                                    bool graph) {
  if (variant != "auto") parse_variant(variant);  // the error names the allowed variants first
  const std::optional<Launch> l = launch == "auto" ? std::nullopt : std::optional<Launch>(parse_launch(launch));
  return std::make_unique<FgbiluPreconditioner>(std::string(variant), given, l, graph ? Apply::graph : Apply::launches);
}

}  // namespace tb::fgbilu
