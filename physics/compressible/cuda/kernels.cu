// CUDA versions of the compressible loops (kernels.hpp): one thread per face or
// cell running loop_bodies.hpp's bodies in grid-stride loops. The gathers make
// every cell's sums in face order, as the host does; the reductions give each
// block its results in a fixed order and the last block to finish combines
// them in the same launch (cuda_reduction::store_and_combine), without atomics
// on the values, so a run repeats bit for bit.
#include <cuda_runtime.h>

#include <algorithm>
#include <mutex>

#include "physics/compressible/loop_bodies.hpp"
#include "solvers/core/cuda/counted_copy.cuh"
#include "solvers/core/cuda/error_check.cuh"
#include "solvers/core/cuda/reduction.cuh"

namespace tb::compressible::kernels::cuda {

namespace {

constexpr int threads = 256;
constexpr int max_blocks = 1024;  // also the number of partial results
constexpr int slots = num_vars;   // results per block

// One block at least: a launch of none is an error, and a reduction over no
// cells combines one block's zeros, as the host's loops give them.
int blocks_for(index_t n) { return int(std::clamp<long>((long(n) + threads - 1) / threads, 1, max_blocks)); }

__device__ __forceinline__ index_t first_index() { return index_t(blockIdx.x * blockDim.x + threadIdx.x); }
__device__ __forceinline__ index_t grid_stride() { return index_t(gridDim.x * blockDim.x); }

__global__ void __launch_bounds__(threads) face_fluxes(MeshView m, SchemeView s, FlowView q, int order, double* out) {
  for (index_t f = first_index(); f < m.num_faces; f += grid_stride())
    bodies::inviscid_face_flux(m, s, q, order, f, out + 4 * std::size_t(f));
}

__global__ void __launch_bounds__(threads) radius_faces(MeshView m, SchemeView s, const double* w, double* out) {
  for (index_t f = first_index(); f < m.num_faces; f += grid_stride())
    out[f] = bodies::spectral_radius_face(m, s, w, f);
}

__global__ void __launch_bounds__(threads)
    gather_cells(MeshView m, FaceSign sign, bool add, int width, const double* face, double* cell) {
  for (index_t c = first_index(); c < m.num_cells; c += grid_stride())
    bodies::gather_cell(m, sign, add, width, face, c, cell + std::size_t(width) * std::size_t(c));
}

__global__ void __launch_bounds__(threads) primitive_cells(index_t n, Gas gas, const double* w, double* primitive) {
  for (index_t c = first_index(); c < n; c += grid_stride())
    bodies::cell_primitive(gas, w, c, primitive + 4 * std::size_t(c));
}

__global__ void __launch_bounds__(threads) ghost_faces(MeshView m, SchemeView s, FlowView q, double* ghost) {
  for (index_t f = first_index(); f < m.num_faces; f += grid_stride())
    if (m.face_right[f] < 0) bodies::ghost_primitive(m, s, q, f, ghost + 4 * std::size_t(f));
}

__global__ void __launch_bounds__(threads)
    gradient_cells(MeshView m, const double* primitive, const double* ghost, double* grad) {
  for (index_t c = first_index(); c < m.num_cells; c += grid_stride())
    bodies::least_squares_gradient(m, primitive, ghost, c, grad + 8 * std::size_t(c));
}

__global__ void __launch_bounds__(threads)
    limiter_cells(MeshView m, const double* primitive, const double* grad, double* phi) {
  for (index_t c = first_index(); c < m.num_cells; c += grid_stride())
    bodies::limiter_cell(m, primitive, grad, c, phi + 4 * std::size_t(c));
}

__global__ void __launch_bounds__(threads) viscous_faces(MeshView m, SchemeView s, FlowView q, double* out) {
  for (index_t f = first_index(); f < m.num_faces; f += grid_stride())
    bodies::viscous_face_flux(m, s, q, f, out + 4 * std::size_t(f));
}

__global__ void __launch_bounds__(threads)
    viscous_jacobian_faces(MeshView m, SchemeView s, const double* w, double* out) {
  for (index_t f = first_index(); f < m.num_faces; f += grid_stride())
    bodies::viscous_jacobian_face(m, s, w, f, out + 32 * std::size_t(f));
}

__global__ void __launch_bounds__(threads)
    force_faces(MeshView m, SchemeView s, FlowView q, int order, index_t owned, double* out) {
  for (index_t f = first_index(); f < m.num_faces; f += grid_stride())
    bodies::wall_force(m, s, q, order, owned, f, out + 4 * std::size_t(f));
}

__global__ void step_along(const double* x_squared, const double* w_sums, double* h) {
  *h = bodies::difference_step(*x_squared, bodies::norm_of_sums(w_sums));
}

__global__ void __launch_bounds__(threads)
    perturbed(index_t n, const double* w, const double* h, const double* x, double* trial) {
  const double step = *h;
  for (index_t i = first_index(); i < n; i += grid_stride()) trial[i] = w[i] + step * x[i];
}

__global__ void __launch_bounds__(threads)
    differences(index_t n, const double* shift, const double* x, const double* r_trial, const double* r,
                const double* h, double* y) {
  const double step = *h;
  for (index_t i = first_index(); i < 4 * n; i += grid_stride())
    y[i] = step == 0.0 ? 0.0 : shift[i / 4] * x[i] + (r_trial[i] - r[i]) / step;
}

__global__ void __launch_bounds__(threads)
    perturbed_columns(const index_t* cells, index_t count, int k, const double* w, double* trial) {
  for (index_t c = first_index(); c < count; c += grid_stride()) bodies::perturb_column(w, cells[c], k, trial);
}

__global__ void __launch_bounds__(threads)
    column_differences(ColumnPattern p, const index_t* cells, index_t count, int k, const double* w, const double* r,
                       const double* r_trial, double* trial, double* values) {
  for (index_t c = first_index(); c < count; c += grid_stride())
    bodies::difference_column(p, w, r, r_trial, cells[c], k, trial, values);
}

__global__ void __launch_bounds__(threads) jacobian_faces(MeshView m, SchemeView s, FlowView q, double* out) {
  for (index_t f = first_index(); f < m.num_faces; f += grid_stride())
    bodies::jacobian_face(m, s, q, f, out + 32 * std::size_t(f));
}

__global__ void __launch_bounds__(threads) jacobian_rows(MeshView m, const double* face_jac, JacobianView a) {
  for (index_t c = first_index(); c < m.num_cells; c += grid_stride()) bodies::gather_jacobian_row(m, face_jac, a, c);
}

__global__ void __launch_bounds__(threads)
    diagonal_cells(index_t n, const index_t* diagonal, const double* shift, double* values) {
  for (index_t c = first_index(); c < n; c += grid_stride()) bodies::diagonal_shift(diagonal, shift, values, c);
}

__global__ void __launch_bounds__(threads) shift_cells(index_t n, const double* sums, double cfl, double* shift) {
  for (index_t c = first_index(); c < n; c += grid_stride()) shift[c] = sums[c] / cfl;
}

// Where a reduction puts its block results, its ticket and its K results.
struct Reduction {
  double* partial;
  unsigned* ticket;
  double* out;
};

// K values per block: sums (Max = false) or maxima, in a fixed order, combined
// into r.out by the last block.
template <int K, bool Max>
__device__ void store_and_combine(const double (&v)[K], const Reduction& r) {
  cuda_reduction::store_and_combine<threads, K, Max>(v, r.partial, r.ticket, r.out);
}

__global__ void __launch_bounds__(threads) squares(index_t n, const double* r, Reduction red) {
  double v[slots] = {};
  for (index_t c = first_index(); c < n; c += grid_stride())
    for (int k = 0; k < num_vars; ++k) v[k] += r[4 * c + k] * r[4 * c + k];
  store_and_combine<slots, false>(v, red);
}

__global__ void __launch_bounds__(threads) sums4(index_t n, const double* v, Reduction red) {
  double s[slots] = {};
  for (index_t i = first_index(); i < n; i += grid_stride())
    for (int k = 0; k < num_vars; ++k) s[k] += v[4 * i + k];
  store_and_combine<slots, false>(s, red);
}

__global__ void __launch_bounds__(threads)
    changes(index_t n, Gas gas, const double* w, const double* dw, Reduction red) {
  double v[1] = {0.0};
  for (index_t c = first_index(); c < n; c += grid_stride()) v[0] = fmax(v[0], bodies::relative_change(gas, w, dw, c));
  store_and_combine<1, true>(v, red);
}

__global__ void __launch_bounds__(threads)
    relaxed(index_t n, Gas gas, const double* w, const double* dw, double omega, double* trial, Reduction red) {
  double v[1] = {0.0};
  for (index_t c = first_index(); c < n; c += grid_stride())
    if (!bodies::relaxed_cell(gas, w, dw, omega, c, trial)) v[0] = 1.0;
  store_and_combine<1, true>(v, red);
}

// Device memory for block results (cuda_reduction::allocate_scratch).
std::mutex scratch_mutex;
const cuda_reduction::Scratch& scratch() {
  static const cuda_reduction::Scratch s =
      cuda_reduction::allocate_scratch(slots * max_blocks + slots, "the compressible scratch");
  return s;
}

// The scratch's reduction, its results in the scratch (out = 0) or at out.
Reduction reduction(double* out = nullptr) {
  const cuda_reduction::Scratch& s = scratch();
  return {s.partial, s.ticket, out ? out : s.partial + slots * max_blocks};
}

// Copies the K results of the reduction `name` here.
void read_results(const Reduction& r, int k, double* result, const char* name) {
  cuda_error::throw_if(cuda_copy::memcpy(result, r.out, std::size_t(k) * sizeof(double), cudaMemcpyDeviceToHost),
                       std::string("cudaMemcpy of the ") + name + " result");
}

void check(const char* name) { cuda_error::check_launch(name); }

}  // namespace

void inviscid_face_fluxes(const MeshView& m, const SchemeView& s, const FlowView& q, int order, double* face_flux) {
  face_fluxes<<<blocks_for(m.num_faces), threads>>>(m, s, q, order, face_flux);
  check("inviscid_face_fluxes");
}

void spectral_radius_faces(const MeshView& m, const SchemeView& s, const double* w, double* face_value) {
  radius_faces<<<blocks_for(m.num_faces), threads>>>(m, s, w, face_value);
  check("spectral_radius_faces");
}

void gather_face_sums(const MeshView& m, FaceSign sign, int width, const double* face_value, double* cell) {
  gather_cells<<<blocks_for(m.num_cells), threads>>>(m, sign, false, width, face_value, cell);
  check("gather_face_sums");
}

void add_face_sums(const MeshView& m, FaceSign sign, int width, const double* face_value, double* cell) {
  gather_cells<<<blocks_for(m.num_cells), threads>>>(m, sign, true, width, face_value, cell);
  check("add_face_sums");
}

void cell_primitives(index_t n, const Gas& gas, const double* w, double* primitive) {
  primitive_cells<<<blocks_for(n), threads>>>(n, gas, w, primitive);
  check("cell_primitives");
}

void ghost_primitives(const MeshView& m, const SchemeView& s, const FlowView& q, double* ghost) {
  ghost_faces<<<blocks_for(m.num_faces), threads>>>(m, s, q, ghost);
  check("ghost_primitives");
}

void least_squares_gradients(const MeshView& m, const double* primitive, const double* ghost, double* grad) {
  gradient_cells<<<blocks_for(m.num_cells), threads>>>(m, primitive, ghost, grad);
  check("least_squares_gradients");
}

void limiter_phi(const MeshView& m, const double* primitive, const double* grad, double* phi) {
  limiter_cells<<<blocks_for(m.num_cells), threads>>>(m, primitive, grad, phi);
  check("limiter_phi");
}

void viscous_face_fluxes(const MeshView& m, const SchemeView& s, const FlowView& q, double* face_flux) {
  viscous_faces<<<blocks_for(m.num_faces), threads>>>(m, s, q, face_flux);
  check("viscous_face_fluxes");
}

void viscous_jacobian_face_blocks(const MeshView& m, const SchemeView& s, const double* w, double* face_jac) {
  viscous_jacobian_faces<<<blocks_for(m.num_faces), threads>>>(m, s, w, face_jac);
  check("viscous_jacobian_face_blocks");
}

void wall_forces(const MeshView& m, const SchemeView& s, const FlowView& q, int order, index_t owned,
                 double* face_force) {
  force_faces<<<blocks_for(m.num_faces), threads>>>(m, s, q, order, owned, face_force);
  check("wall_forces");
}

void difference_step(const double* x_squared, const double* w_sums, double* h) {
  step_along<<<1, 1>>>(x_squared, w_sums, h);
  check("difference_step");
}

void perturbed_state(index_t n, const double* w, const double* h, const double* x, double* trial) {
  perturbed<<<blocks_for(n), threads>>>(n, w, h, x, trial);
  check("perturbed_state");
}

void difference_product(index_t n, const double* shift, const double* x, const double* r_trial, const double* r,
                        const double* h, double* y) {
  differences<<<blocks_for(4 * n), threads>>>(n, shift, x, r_trial, r, h, y);
  check("difference_product");
}

void perturb_columns(const index_t* cells, index_t count, int k, const double* w, double* trial) {
  perturbed_columns<<<blocks_for(count), threads>>>(cells, count, k, w, trial);
  check("perturb_columns");
}

void difference_columns(const ColumnPattern& p, const index_t* cells, index_t count, int k, const double* w,
                        const double* r, const double* r_trial, double* trial, double* values) {
  column_differences<<<blocks_for(count), threads>>>(p, cells, count, k, w, r, r_trial, trial, values);
  check("difference_columns");
}

void jacobian_face_blocks(const MeshView& m, const SchemeView& s, const FlowView& q, double* face_jac) {
  jacobian_faces<<<blocks_for(m.num_faces), threads>>>(m, s, q, face_jac);
  check("jacobian_face_blocks");
}

void gather_jacobian_rows(const MeshView& m, const double* face_jac, const JacobianView& a) {
  jacobian_rows<<<blocks_for(m.num_cells), threads>>>(m, face_jac, a);
  check("gather_jacobian_rows");
}

void add_diagonal_shift(index_t n, const index_t* diagonal, const double* shift, double* values) {
  diagonal_cells<<<blocks_for(n), threads>>>(n, diagonal, shift, values);
  check("add_diagonal_shift");
}

State squared_sums(index_t n, const double* r) {
  std::lock_guard lock(scratch_mutex);
  const Reduction red = reduction();
  squares<<<blocks_for(n), threads>>>(n, r, red);
  check("squared_sums");
  State out{};
  read_results(red, slots, out.data(), "squared_sums");
  return out;
}

// squared_sums combined into `sums` on the device, nothing read back.
void squared_sums_to(index_t n, const double* r, double* sums) {
  std::lock_guard lock(scratch_mutex);
  squares<<<blocks_for(n), threads>>>(n, r, reduction(sums));
  check("squared_sums_to");
}

// Block sums in a fixed order, combined by the last block: the same bits every
// run (not the host's index-order bits: device and host agree to rounding).
State ordered_sums(index_t n, const double* v) {
  std::lock_guard lock(scratch_mutex);
  const Reduction red = reduction();
  sums4<<<blocks_for(n), threads>>>(n, v, red);
  check("ordered_sums");
  State out{};
  read_results(red, slots, out.data(), "ordered_sums");
  return out;
}

void pseudo_time_shift(index_t n, const double* sums, double cfl, double* shift) {
  shift_cells<<<blocks_for(n), threads>>>(n, sums, cfl, shift);
  check("pseudo_time_shift");
}

double max_relative_change(index_t n, const Gas& gas, const double* w, const double* dw) {
  std::lock_guard lock(scratch_mutex);
  const Reduction red = reduction();
  changes<<<blocks_for(n), threads>>>(n, gas, w, dw, red);
  check("max_relative_change");
  double out = 0.0;
  read_results(red, 1, &out, "max_relative_change");
  return out;
}

bool relaxed_update(index_t n, const Gas& gas, const double* w, const double* dw, double omega, double* trial) {
  std::lock_guard lock(scratch_mutex);
  const Reduction red = reduction();
  relaxed<<<blocks_for(n), threads>>>(n, gas, w, dw, omega, trial, red);
  check("relaxed_update");
  double bad = 0.0;
  read_results(red, 1, &bad, "relaxed_update");
  return bad == 0.0;
}

}  // namespace tb::compressible::kernels::cuda
