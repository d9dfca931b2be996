// Every CUDA multigrid kernel against its sequential twin kernels::ref, on the
// inputs of test_mg_kernels.cpp (grids past a GPU's few waves too). The bodies
// are the host's; nvcc contracts products and sums into fused multiply-adds,
// so values agree to rounding, not bit for bit. Skips with the reason when no
// device is visible.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "kernel_inputs.hpp"
#include "solvers/core/array.hpp"
#include "solvers/core/cuda_call.hpp"

namespace tb::mg {
namespace ref = kernels::ref;
namespace gpu = kernels::cuda;
namespace {

#define TB_SKIP_WITHOUT_DEVICE() \
  if (const std::string why = cuda_unavailable_reason(); !why.empty()) GTEST_SKIP() << why

template <class T>
Array<T> on_device(const std::vector<T>& v) {
  return v.empty() ? Array<T>() : Array<T>(Backend::cuda, std::span<const T>(v));
}

void expect_close(const std::vector<double>& got, const std::vector<double>& want, const std::string& what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  for (std::size_t i = 0; i < want.size(); ++i)
    ASSERT_NEAR(got[i], want[i], 1e-13 * (1.0 + std::abs(want[i]))) << what << " at " << i;
}

// A level's stencil copied to the device, and its view there.
struct DeviceLevel {
  Array<double> coef, dinv, rest_val;
  Array<index_t> rest_ptr, rest_col, rows;
  Array<unsigned char> irregular;
  StencilView view;
  explicit DeviceLevel(const test::MgLevelInputs& in)
      : coef(on_device(in.coef)),
        dinv(on_device(in.dinv)),
        rest_val(on_device(in.rest_val)),
        rest_ptr(on_device(in.rest_ptr)),
        rest_col(on_device(in.rest_col)),
        rows(on_device(in.irregular_rows)),
        irregular(on_device(in.irregular)),
        view(in.view()) {
    view.coef = coef.data();
    view.dinv = dinv.data();
    if (!in.rest_ptr.empty()) {
      view.rest_ptr = rest_ptr.data();
      view.rest_col = rest_col.data();
      view.rest_val = rest_val.data();
      view.irregular = irregular.data();
    }
  }
};

struct Case {
  StructuredIndex grid;
  bool box, remainder;
};

std::vector<Case> cases() {
  std::vector<Case> c;
  for (bool box : {false, true})
    for (bool rest : {false, true}) {
      c.push_back({{11, 9, 7}, box, rest});
      c.push_back({{12, 10, 1}, box, rest});
      c.push_back({{96, 80, 64}, box, rest});
    }
  return c;
}

TEST(MgKernelsGpu, StencilKernelsEqualRef) {
  TB_SKIP_WITHOUT_DEVICE();
  for (const Case& k : cases()) {
    const test::MgLevelInputs in = test::mg_level(k.grid, k.box, k.remainder, 3);
    const DeviceLevel dev(in);
    const index_t n = in.cells(), pad = in.pad();
    const auto x = test::mg_padded(n, pad, 4), b = test::mg_padded(n, 0, 5), d0 = test::mg_padded(n, 0, 6);
    Array<double> xd = on_device(x), bd = on_device(b), rd = on_device(d0), dd = on_device(d0), od = on_device(d0);
    const std::string what = std::to_string(n) + (k.box ? " box" : " star") + (k.remainder ? " + remainder" : "");

    std::vector<double> r(static_cast<std::size_t>(n));
    ref::residual(in.view(), b.data(), x.data() + pad, r.data());
    TB_CUDA_CALL(gpu::residual(dev.view, bd.data(), xd.data() + pad, rd.data()));
    expect_close(rd.to_host(), r, "residual " + what);

    std::vector<double> d = d0, out(d0.size());
    ref::polynomial_step(in.view(), 0.3, 0.7, b.data(), x.data() + pad, d.data(), out.data());
    TB_CUDA_CALL(gpu::polynomial_step(dev.view, 0.3, 0.7, bd.data(), xd.data() + pad, dd.data(), od.data()));
    expect_close(dd.to_host(), d, "polynomial_step d " + what);
    expect_close(od.to_host(), out, "polynomial_step x " + what);

    std::vector<double> gs = x;
    Array<double> gsd = on_device(x);
    for (int col = 0; col < (k.box ? 8 : 2); ++col) {
      ref::colour_sweep(in.view(), col, b.data(), gs.data() + pad);
      TB_CUDA_CALL(gpu::colour_sweep(dev.view, col, bd.data(), gsd.data() + pad));
    }
    expect_close(gsd.to_host(), gs, "colour_sweep " + what);

    if (k.remainder) {
      const index_t count = index_t(in.irregular_rows.size());
      std::vector<double> t(static_cast<std::size_t>(count));
      Array<double> td(Backend::cuda, std::size_t(count));
      ref::rows_relax(in.view(), in.irregular_rows.data(), count, b.data(), x.data() + pad, t.data());
      TB_CUDA_CALL(gpu::rows_relax(dev.view, dev.rows.data(), count, bd.data(), xd.data() + pad, td.data()));
      expect_close(td.to_host(), t, "rows_relax " + what);
      std::vector<double> xs = x;
      ref::rows_scatter(in.irregular_rows.data(), count, t.data(), xs.data() + pad);
      TB_CUDA_CALL(gpu::rows_scatter(dev.rows.data(), count, td.data(), xd.data() + pad));
      expect_close(xd.to_host(), xs, "rows_scatter " + what);
      ref::rows_scale(in.irregular_rows.data(), count, t.data(), xs.data() + pad);
      TB_CUDA_CALL(gpu::rows_scale(dev.rows.data(), count, td.data(), xd.data() + pad));
      expect_close(xd.to_host(), xs, "rows_scale " + what);
    }
  }
}

TEST(MgKernelsGpu, TransferDenseAndVectorKernelsEqualRef) {
  TB_SKIP_WITHOUT_DEVICE();
  for (StructuredIndex g : {StructuredIndex{11, 9, 7}, StructuredIndex{96, 80, 64}})
    for (int mask = 1; mask < 8; ++mask) {
      test::MgTransferInputs t = test::mg_transfer(g, mask & 1, mask & 2, mask & 4, unsigned(mask));
      Array<double> w[3];
      TransferView tv = t.view;
      for (int d = 0; d < 3; ++d)
        if (!t.weight[d].empty()) {
          w[d] = on_device(t.weight[d]);
          tv.weight[d] = w[d].data();
        }
      const auto r = test::mg_padded(g.cells(), 0, 21), xc = test::mg_padded(tv.coarse.cells(), 0, 22),
                 x0 = test::mg_padded(g.cells(), 0, 23);
      std::vector<double> bc(static_cast<std::size_t>(tv.coarse.cells())), x = x0;
      Array<double> rd = on_device(r), xcd = on_device(xc), xd = on_device(x0), bcd(Backend::cuda, bc.size());
      ref::restrict_residual(t.view, r.data(), bc.data());
      TB_CUDA_CALL(gpu::restrict_residual(tv, rd.data(), bcd.data()));
      expect_close(bcd.to_host(), bc, "restrict " + std::to_string(mask));
      ref::prolong_add(t.view, xc.data(), x.data());
      TB_CUDA_CALL(gpu::prolong_add(tv, xcd.data(), xd.data()));
      expect_close(xd.to_host(), x, "prolong " + std::to_string(mask));
    }
  const index_t n = 700;
  const auto g = test::mg_padded(n * n, 0, 41), b = test::mg_padded(n, 0, 42);
  std::vector<double> want(static_cast<std::size_t>(n));
  ref::dense_apply(n, g.data(), n, 1, b.data(), want.data());
  Array<double> gd = on_device(g), bd = on_device(b), xd(Backend::cuda, std::size_t(n));
  TB_CUDA_CALL(gpu::dense_apply(n, gd.data(), n, 1, bd.data(), xd.data()));
  expect_close(xd.to_host(), want, "dense_apply");
  TB_CUDA_CALL(gpu::add(n, bd.data(), xd.data()));
  for (index_t i = 0; i < n; ++i) want[std::size_t(i)] += b[std::size_t(i)];
  expect_close(xd.to_host(), want, "add");
  TB_CUDA_CALL(gpu::copy(n, bd.data(), xd.data()));
  EXPECT_EQ(xd.to_host(), b);
  TB_CUDA_CALL(gpu::fill_zero(n, xd.data()));
  EXPECT_EQ(xd.to_host(), std::vector<double>(static_cast<std::size_t>(n), 0.0));
}

}  // namespace
}  // namespace tb::mg
