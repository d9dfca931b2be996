#include "multigrid.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include "kernels.hpp"
#include "solvers/core/cuda_call.hpp"
#include "solvers/core/error.hpp"

namespace tb::mg {

std::string_view to_string(Smoother s) {
  switch (s) {
    case Smoother::chebyshev:
      return "chebyshev";
    case Smoother::jacobi:
      return "jacobi";
    case Smoother::gauss_seidel:
      return "gauss_seidel";
    case Smoother::ilu:
      return "ilu";
  }
  return "?";
}

namespace {
// One step of a polynomial smoother: d = alpha d + beta D^{-1} r, x += d.
struct PolynomialStep {
  double alpha = 0.0, beta = 0.0;
};

// What a level's cycle reads and writes, on the solver's backend.
struct LevelData {
  StencilView a;   // the operator, pointers on the backend
  TransferView t;  // to the next coarser level (unused on the coarsest)
  index_t n = 0, pad = 0;
  // Device copies (cuda only; on the host the views point into the hierarchy).
  Array<double> coef, dinv, weight[3], rest_val;
  Array<index_t> rest_ptr, rest_col, rows;
  Array<unsigned char> irregular;
  const index_t* irregular_rows = nullptr;
  index_t irregular_count = 0;
  // The finest level's S (StructuredOperator::row_scale) on the irregular rows, or null.
  Array<double> row_scale_copy;
  const double* row_scale = nullptr;
  // Vectors: x padded (two, for out-of-place polynomial steps), the others plain.
  Array<double> x[2], b, r, d, row_values;
  int current = 0;
  const double* b_in = nullptr;       // b, or on the finest level the vector being preconditioned
  std::vector<PolynomialStep> steps;  // one smoothing sweep's polynomial steps

  double* x_now() { return x[current].data() + pad; }
  double* x_next() { return x[1 - current].data() + pad; }
};

template <class T>
Array<T> device_copy(Backend be, const std::vector<T>& host) {
  return host.empty() ? Array<T>() : Array<T>(be, std::span<const T>(host));
}

class Multigrid final : public Preconditioner {
 public:
  Multigrid(Options o, std::unique_ptr<Preconditioner> ilu) : o_(o), ilu_(std::move(ilu)) {
    if ((o_.smoother == Smoother::ilu) != bool(ilu_))
      throw Error(o_.smoother == Smoother::ilu ? "mg: smoother ilu needs a preconditioner to smooth with"
                                               : "mg: an ILU smoother was given for another smoother");
  }
  ~Multigrid() override { release_graph(); }

  void setup(const BsrMatrix& a, Backend backend) override {
    release_graph();
    backend_ = backend;
    const bool given = o_.grid.ni > 0 || o_.grid.nj > 0 || o_.grid.nk > 0;
    h_.build(a, given ? &o_.grid : nullptr, o_.hierarchy);
    const int active = active_directions(h_.finest().grid);
    dimensions_ = (active & 1) + ((active >> 1) & 1) + ((active >> 2) & 1);
    allocate();
    refresh_device();
    if (ilu_) ilu_->setup(a, backend);
    record_graph();
  }

  void update(const BsrMatrix& a) override {
    h_.refresh(a);
    refresh_device();
    if (ilu_) ilu_->update(a);
    // The polynomial coefficients are the recorded kernels' arguments.
    release_graph();
    record_graph();
  }

  void apply(const Vector& r, Vector& z) const override {
    LevelData& top = lv_[0];
    if (graph_) {
      kernels::copy(backend_, top.n, r.data(), top.b.data());
      TB_CUDA_CALL(kernels::cuda::replay(graph_));
    } else {
      top.b_in = r.data();
      r_ = &r;
      run_cycle();
    }
    kernels::copy(backend_, top.n, lv_[0].x[final_current_].data() + top.pad, z.data());
  }

  bool supports(Backend b) const override { return !ilu_ || ilu_->supports(b); }
  bool is_variable() const override { return ilu_ && ilu_->is_variable(); }
  const Hierarchy& hierarchy() const { return h_; }

 private:
  int last() const { return h_.levels() - 1; }

  void allocate() {
    const Backend be = backend_;
    lv_.clear();
    lv_.resize(std::size_t(h_.levels()));
    for (int l = 0; l < h_.levels(); ++l) {
      LevelData& L = lv_[std::size_t(l)];
      const Level& hl = h_.level(l);
      L.n = hl.grid.cells();
      L.pad = padding(hl.grid);
      for (Array<double>& x : L.x) {
        x = Array<double>(be, std::size_t(L.n + 2 * L.pad));
        x.set_zero();
      }
      L.b = Array<double>(be, std::size_t(L.n));
      L.r = Array<double>(be, std::size_t(L.n));
      L.d = Array<double>(be, std::size_t(L.n));
      L.b_in = L.b.data();
      L.a = h_.view(l);
      if (l < last()) L.t = h_.transfer(l);
      if (be == Backend::cuda) {
        L.coef = device_copy(be, l == 0 ? h_.finest().coef : hl.coef);
        L.dinv = device_copy(be, hl.dinv);
        L.a.coef = L.coef.data();
        L.a.dinv = L.dinv.data();
        for (int d = 0; d < 3; ++d)
          if (l < last() && hl.coarsened[d]) {
            L.weight[d] = device_copy(be, hl.weight[d]);
            L.t.weight[d] = L.weight[d].data();
          }
      }
      if (l == 0 && h_.finest().has_remainder()) {
        const StructuredOperator& f = h_.finest();
        L.irregular_count = index_t(f.irregular_rows.size());
        L.irregular_rows = f.irregular_rows.data();
        if (be == Backend::cuda) {
          L.rest_ptr = device_copy(be, f.rest_ptr);
          L.rest_col = device_copy(be, f.rest_col);
          L.rest_val = device_copy(be, f.rest_val);
          L.irregular = device_copy(be, f.irregular);
          L.rows = device_copy(be, f.irregular_rows);
          L.a.rest_ptr = L.rest_ptr.data();
          L.a.rest_col = L.rest_col.data();
          L.a.rest_val = L.rest_val.data();
          L.a.irregular = L.irregular.data();
          L.irregular_rows = L.rows.data();
        }
        L.row_values = Array<double>(be, std::size_t(L.irregular_count));
        if (be == Backend::cuda) L.row_scale_copy = Array<double>(be, std::size_t(L.irregular_count));
      }
    }
    if (ilu_) {
      ilu_r_ = Vector(be, std::size_t(lv_[0].n));
      ilu_z_ = Vector(be, std::size_t(lv_[0].n));
    }
    if (h_.direct_coarse()) {
      const index_t m = h_.coarse().size();
      transposed_.assign(std::size_t(m) * std::size_t(m), 0.0);
      if (be == Backend::cuda) inverse_ = Array<double>(be, transposed_.size());
    }
  }

  // The numbers that change with the matrix: the device copies and the smoothers' coefficients.
  void refresh_device() {
    for (int l = 0; l < h_.levels(); ++l) {
      LevelData& L = lv_[std::size_t(l)];
      const Level& hl = h_.level(l);
      L.steps = smoothing_steps(hl.largest_eigenvalue);
      if (backend_ != Backend::cuda) continue;
      L.coef.copy_from_host(l == 0 ? h_.finest().coef : hl.coef);
      L.dinv.copy_from_host(hl.dinv);
      for (int d = 0; d < 3; ++d)
        if (!L.weight[d].empty()) L.weight[d].copy_from_host(hl.weight[d]);
      if (!L.rest_val.empty()) L.rest_val.copy_from_host(h_.finest().rest_val);
    }
    // The scale restricted with the finest residual where the Galerkin product took S A.
    LevelData& top = lv_[0];
    const StructuredOperator& f = h_.finest();
    top.row_scale = nullptr;
    if (f.scaled() && o_.hierarchy.remainder_in_galerkin) {
      top.row_scale = f.row_scale.data();
      if (backend_ == Backend::cuda) {
        top.row_scale_copy.copy_from_host(f.row_scale);
        top.row_scale = top.row_scale_copy.data();
      }
    }
    if (h_.direct_coarse() && backend_ == Backend::cuda) {
      // Column-major on the device: consecutive threads (rows) read consecutive entries.
      const index_t m = h_.coarse().size();
      const std::vector<double>& g = h_.coarse().inverse();
      for (index_t i = 0; i < m; ++i)
        for (index_t j = 0; j < m; ++j)
          transposed_[std::size_t(j) * std::size_t(m) + std::size_t(i)] =
              g[std::size_t(i) * std::size_t(m) + std::size_t(j)];
      inverse_.copy_from_host(transposed_);
    }
  }

  // The steps of one sweep for a level whose D^{-1} A has its spectrum in (0, largest].
  std::vector<PolynomialStep> smoothing_steps(double largest) const {
    const double lambda = largest > 0.0 ? largest : 1.0;
    if (o_.smoother == Smoother::jacobi) {
      // 2d / (2d + 1), the damping that smooths the d-dimensional Laplacian best
      // (4/5 in 2D, 6/7 in 3D), on D^{-1} A scaled to the Laplacian's bound of 2.
      const int d = dimensions_;
      return {{0.0, 2.0 * d / (2.0 * d + 1.0) * 2.0 / lambda}};
    }
    // Saad, Iterative Methods for Sparse Linear Systems (2003), Algorithm 12.1,
    // on the interval [lo, hi] of D^{-1} A.
    const double lo = chebyshev_lower_fraction * lambda, hi = lambda;
    const double theta = 0.5 * (hi + lo), delta = 0.5 * (hi - lo), sigma = theta / delta;
    std::vector<PolynomialStep> steps{{0.0, 1.0 / theta}};
    double rho = 1.0 / sigma;
    for (int k = 1; k < o_.degree; ++k) {
      const double next = 1.0 / (2.0 * sigma - rho);
      steps.push_back({next * rho, 2.0 * next / delta});
      rho = next;
    }
    return steps;
  }

  void record_graph() {
    if (backend_ != Backend::cuda || !o_.graph || ilu_) return;
    lv_[0].b_in = lv_[0].b.data();
    TB_CUDA_CALL(kernels::cuda::begin_capture());
    try {
      run_cycle();
    } catch (...) {
      TB_CUDA_CALL(kernels::cuda::abandon_capture());
      throw;
    }
    graph_ = TB_CUDA_CALL(kernels::cuda::end_capture());
  }

  void release_graph() noexcept {
    if (graph_) TB_CUDA_CALL(kernels::cuda::destroy(graph_));
    graph_ = nullptr;
  }

  void run_cycle() const {
    for (LevelData& L : lv_) L.current = 0;
    cycle(0, true);
    final_current_ = lv_[0].current;
  }

  void cycle(int l, bool x_zero) const {
    LevelData& L = lv_[std::size_t(l)];
    if (l == last()) return coarse_solve(x_zero);
    smooth(l, true, x_zero);
    LevelData& C = lv_[std::size_t(l) + 1];
    kernels::residual(backend_, L.a, L.b_in, L.x_now(), L.r.data());
    if (L.row_scale) kernels::rows_scale(backend_, L.irregular_rows, L.irregular_count, L.row_scale, L.r.data());
    kernels::restrict_residual(backend_, L.t, L.r.data(), C.b.data());
    cycle(l + 1, true);
    if (o_.cycle == Cycle::w && l + 1 < last()) cycle(l + 1, false);
    kernels::prolong_add(backend_, L.t, C.x_now(), L.x_now());
    smooth(l, false, false);
  }

  void coarse_solve(bool x_zero) const {
    LevelData& L = lv_[std::size_t(last())];
    if (h_.direct_coarse()) {
      const index_t m = L.n;
      const bool cuda = backend_ == Backend::cuda;
      const double* g = cuda ? inverse_.data() : h_.coarse().inverse().data();
      kernels::dense_apply(backend_, m, g, cuda ? 1 : m, cuda ? m : 1, L.b_in, L.x_now());
      return;
    }
    for (int s = 0; s < o_.coarse_sweeps; ++s) smooth(last(), true, x_zero && s == 0);
    for (int s = 0; s < o_.coarse_sweeps; ++s) smooth(last(), false, false);
  }

  // One smoothing pass (o_.sweeps sweeps) on level l; `pre` orders the colours forward.
  void smooth(int l, bool pre, bool x_zero) const {
    LevelData& L = lv_[std::size_t(l)];
    const Smoother kind = o_.smoother == Smoother::ilu && l > 0 ? Smoother::chebyshev : o_.smoother;
    for (int s = 0; s < o_.sweeps; ++s, x_zero = false) switch (kind) {
        case Smoother::chebyshev:
        case Smoother::jacobi:
          for (const PolynomialStep& st : L.steps) {
            kernels::polynomial_step(backend_, L.a, st.alpha, st.beta, L.b_in, x_zero ? nullptr : L.x_now(), L.d.data(),
                                     L.x_next());
            L.current = 1 - L.current;
            x_zero = false;
          }
          break;
        case Smoother::gauss_seidel:
          gauss_seidel(L, pre, x_zero);
          break;
        case Smoother::ilu:
          ilu_sweep(L, x_zero);
          break;
      }
  }

  void gauss_seidel(LevelData& L, bool forward, bool x_zero) const {
    if (x_zero) kernels::fill_zero(backend_, L.n, L.x_now());
    const int colours = L.a.box ? 8 : 2;
    if (!forward) relax_irregular(L);
    for (int k = 0; k < colours; ++k)
      kernels::colour_sweep(backend_, L.a, forward ? k : colours - 1 - k, L.b_in, L.x_now());
    if (forward) relax_irregular(L);
  }

  void relax_irregular(LevelData& L) const {
    if (L.irregular_count == 0) return;
    kernels::rows_relax(backend_, L.a, L.irregular_rows, L.irregular_count, L.b_in, L.x_now(), L.row_values.data());
    kernels::rows_scatter(backend_, L.irregular_rows, L.irregular_count, L.row_values.data(), L.x_now());
  }

  void ilu_sweep(LevelData& L, bool x_zero) const {
    if (x_zero) {
      ilu_->apply(*r_, ilu_z_);
      kernels::copy(backend_, L.n, ilu_z_.data(), L.x_now());
      return;
    }
    kernels::residual(backend_, L.a, L.b_in, L.x_now(), ilu_r_.data());
    ilu_->apply(ilu_r_, ilu_z_);
    kernels::add(backend_, L.n, ilu_z_.data(), L.x_now());
  }

  Options o_;
  std::unique_ptr<Preconditioner> ilu_;
  Backend backend_ = Backend::host;
  int dimensions_ = 3;
  Hierarchy h_;
  mutable std::vector<LevelData> lv_;
  mutable Vector ilu_r_, ilu_z_;
  mutable const Vector* r_ = nullptr;
  mutable int final_current_ = 0;
  std::vector<double> transposed_;
  Array<double> inverse_;
  kernels::cuda::Graph* graph_ = nullptr;
};

}  // namespace

const Hierarchy* hierarchy_of(const Preconditioner& p) {
  const auto* m = dynamic_cast<const Multigrid*>(&p);
  return m ? &m->hierarchy() : nullptr;
}

std::unique_ptr<Preconditioner> make_preconditioner(const Options& o, std::unique_ptr<Preconditioner> ilu_smoother) {
  return std::make_unique<Multigrid>(o, std::move(ilu_smoother));
}

}  // namespace tb::mg
