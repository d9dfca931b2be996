// CUDA twins of the multigrid kernels (kernels.hpp): one thread per cell (per
// row of the dense coarse inverse) running the host's bodies from
// row_kernels.hpp in grid-stride loops, launched on the stream a graph capture
// records into, or on the default stream otherwise.
#include <cuda_runtime.h>

#include <algorithm>

#include "solvers/core/cuda/error_check.cuh"
#include "solvers/core/cuda/graph_capture.cuh"
#include "solvers/mg/kernels.hpp"

namespace tb::mg::kernels::cuda {

namespace {

constexpr int threads = 256;
constexpr long max_blocks = 65535;

// Where the kernels launch: the capture stream between begin_capture and
// end_capture, the default stream otherwise.
cuda_graph::Recorder recorder("mg");
cudaStream_t launch_stream() { return recorder.launch_stream(); }

int blocks_for(long n) { return int(std::max<long>(1, std::min<long>((n + threads - 1) / threads, max_blocks))); }

__device__ __forceinline__ long first_index() { return long(blockIdx.x) * blockDim.x + threadIdx.x; }
__device__ __forceinline__ long grid_stride() { return long(gridDim.x) * blockDim.x; }

template <int P>
__global__ void __launch_bounds__(threads) residual_kernel(StencilView a, const double* b, const double* x, double* r) {
  for (long c = first_index(); c < a.grid.cells(); c += grid_stride())
    r[c] = b[c] - stencil_product<P>(a, index_t(c), x);
}

template <int P>
__global__ void __launch_bounds__(threads) polynomial_kernel(StencilView a, double alpha, double beta, const double* b,
                                                             const double* x_in, double* d, double* x_out) {
  for (long c = first_index(); c < a.grid.cells(); c += grid_stride())
    polynomial_cell<P>(a, index_t(c), alpha, beta, b, x_in, d, x_out);
}

template <int P>
__global__ void __launch_bounds__(threads)
    colour_kernel(StencilView a, int colour, ColourLines cl, const double* b, double* x) {
  const long n = long(cl.lines) * cl.half_i;
  for (long t = first_index(); t < n; t += grid_stride()) {
    const index_t c = colour_cell(a, colour, index_t(t / cl.half_i), index_t(t % cl.half_i));
    if (c >= 0) gauss_seidel_cell<P>(a, c, b, x);
  }
}

template <int P>
__global__ void __launch_bounds__(threads)
    rows_relax_kernel(StencilView a, const index_t* rows, index_t count, const double* b, const double* x, double* t) {
  for (long k = first_index(); k < count; k += grid_stride()) {
    const index_t r = rows[k];
    t[k] = x[r] + a.dinv[r] * (b[r] - stencil_product<P>(a, r, x));
  }
}

__global__ void __launch_bounds__(threads)
    rows_scatter_kernel(const index_t* rows, index_t count, const double* t, double* x) {
  for (long k = first_index(); k < count; k += grid_stride()) x[rows[k]] = t[k];
}

__global__ void __launch_bounds__(threads)
    rows_scale_kernel(const index_t* rows, index_t count, const double* s, double* x) {
  for (long k = first_index(); k < count; k += grid_stride()) x[rows[k]] *= s[k];
}

__global__ void __launch_bounds__(threads) restrict_kernel(TransferView t, const double* r, double* bc) {
  const StructuredIndex& g = t.coarse;
  for (long c = first_index(); c < g.cells(); c += grid_stride()) {
    const RestrictLine line = restrict_line(t, g.j_of(index_t(c)), g.k_of(index_t(c)));
    bc[c] = restrict_cell(t, line, g.i_of(index_t(c)), r);
  }
}

__global__ void __launch_bounds__(threads) prolong_kernel(TransferView t, const double* xc, double* x) {
  const StructuredIndex& g = t.fine;
  for (long f = first_index(); f < g.cells(); f += grid_stride()) {
    const ProlongLine line = prolong_line(t, g.j_of(index_t(f)), g.k_of(index_t(f)));
    const Parents pi = parents_of(t, 0, g.i_of(index_t(f)));
    const double hi = pi.count == 2 ? prolong_column(line, pi.first + 1, xc) : 0.0;
    x[f] += prolong_value(pi, prolong_column(line, pi.first, xc), hi);
  }
}

__global__ void __launch_bounds__(threads)
    dense_kernel(index_t n, const double* g, index_t row_stride, index_t col_stride, const double* b, double* x) {
  for (long i = first_index(); i < n; i += grid_stride()) x[i] = dense_row(n, g, row_stride, col_stride, index_t(i), b);
}

__global__ void __launch_bounds__(threads) fill_zero_kernel(index_t n, double* x) {
  for (long i = first_index(); i < n; i += grid_stride()) x[i] = 0.0;
}

__global__ void __launch_bounds__(threads) copy_kernel(index_t n, const double* src, double* dst) {
  for (long i = first_index(); i < n; i += grid_stride()) dst[i] = src[i];
}

__global__ void __launch_bounds__(threads) add_kernel(index_t n, const double* z, double* x) {
  for (long i = first_index(); i < n; i += grid_stride()) x[i] += z[i];
}

// launch.template operator()<P>() for the level's point count.
template <class F>
void with_points(int points, F&& launch) {
  switch (points) {
    case 3:
      return launch.template operator()<3>();
    case 5:
      return launch.template operator()<5>();
    case 7:
      return launch.template operator()<7>();
    case 9:
      return launch.template operator()<9>();
    default:
      return launch.template operator()<27>();
  }
}

}  // namespace

void residual(const StencilView& a, const double* b, const double* x, double* r) {
  with_points(a.points, [&]<int P>() {
    residual_kernel<P><<<blocks_for(a.grid.cells()), threads, 0, launch_stream()>>>(a, b, x, r);
  });
  cuda_error::check_launch("mg residual");
}

void polynomial_step(const StencilView& a, double alpha, double beta, const double* b, const double* x_in, double* d,
                     double* x_out) {
  with_points(a.points, [&]<int P>() {
    polynomial_kernel<P>
        <<<blocks_for(a.grid.cells()), threads, 0, launch_stream()>>>(a, alpha, beta, b, x_in, d, x_out);
  });
  cuda_error::check_launch("mg polynomial_step");
}

void colour_sweep(const StencilView& a, int colour, const double* b, double* x) {
  const ColourLines cl = colour_lines(a, colour);
  const long n = long(cl.lines) * cl.half_i;
  if (n == 0) return;
  with_points(a.points,
              [&]<int P>() { colour_kernel<P><<<blocks_for(n), threads, 0, launch_stream()>>>(a, colour, cl, b, x); });
  cuda_error::check_launch("mg colour_sweep");
}

void rows_relax(const StencilView& a, const index_t* rows, index_t count, const double* b, const double* x, double* t) {
  with_points(a.points, [&]<int P>() {
    rows_relax_kernel<P><<<blocks_for(count), threads, 0, launch_stream()>>>(a, rows, count, b, x, t);
  });
  cuda_error::check_launch("mg rows_relax");
}

void rows_scatter(const index_t* rows, index_t count, const double* t, double* x) {
  rows_scatter_kernel<<<blocks_for(count), threads, 0, launch_stream()>>>(rows, count, t, x);
  cuda_error::check_launch("mg rows_scatter");
}

void rows_scale(const index_t* rows, index_t count, const double* s, double* x) {
  rows_scale_kernel<<<blocks_for(count), threads, 0, launch_stream()>>>(rows, count, s, x);
  cuda_error::check_launch("mg rows_scale");
}

void restrict_residual(const TransferView& t, const double* r, double* bc) {
  restrict_kernel<<<blocks_for(t.coarse.cells()), threads, 0, launch_stream()>>>(t, r, bc);
  cuda_error::check_launch("mg restrict_residual");
}

void prolong_add(const TransferView& t, const double* xc, double* x) {
  prolong_kernel<<<blocks_for(t.fine.cells()), threads, 0, launch_stream()>>>(t, xc, x);
  cuda_error::check_launch("mg prolong_add");
}

void dense_apply(index_t n, const double* g, index_t row_stride, index_t col_stride, const double* b, double* x) {
  dense_kernel<<<blocks_for(n), threads, 0, launch_stream()>>>(n, g, row_stride, col_stride, b, x);
  cuda_error::check_launch("mg dense_apply");
}

void fill_zero(index_t n, double* x) {
  fill_zero_kernel<<<blocks_for(n), threads, 0, launch_stream()>>>(n, x);
  cuda_error::check_launch("mg fill_zero");
}

void copy(index_t n, const double* src, double* dst) {
  copy_kernel<<<blocks_for(n), threads, 0, launch_stream()>>>(n, src, dst);
  cuda_error::check_launch("mg copy");
}

void add(index_t n, const double* z, double* x) {
  add_kernel<<<blocks_for(n), threads, 0, launch_stream()>>>(n, z, x);
  cuda_error::check_launch("mg add");
}

TB_RECORDED_GRAPH_FUNCTIONS(recorder)

}  // namespace tb::mg::kernels::cuda
