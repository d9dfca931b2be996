// tb-incomp on the slabs of a decomposed grid (mpiexec -n 2) with each rank's
// step resident on the GPU (run.backend = cuda: the fields, both systems and
// the solves on the device, the ghost planes exchanged from its buffers)
// against the host's decomposed run: each step's momentum residual and
// velocity change agree to the solvers' tolerance, and both projections leave
// the divergence at it. The ranks share the machine's GPU. Skipped, with the
// reason, where no GPU is visible.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <string>

#include "miniapp_descriptions.hpp"
#include "miniapps/common/domain_sharing.hpp"
#include "miniapps/incompressible/incomp_simulation.hpp"
#include "solvers/core/backend.hpp"
#include "solvers/systems/system_set.hpp"

namespace tb {
namespace {

using incompressible::IncompressibleSimulation;

double result(const harness::StepResult& r, const std::string& name) {
  for (const auto& [n, v] : r.residuals)
    if (n == name) return v;
  ADD_FAILURE() << "no result " << name;
  return 0.0;
}

TEST(IncompResidentRanksGpu, EachRanksDeviceStepsAsTheHost) {
  if (cuda_device_count() == 0) GTEST_SKIP() << cuda_unavailable_reason() << ": the resident slabs were not run";
  harness::CaseConfig config(harness::make_schema(test::incomp_app()));
  config.set("grid.nx", "32");
  config.set("grid.ny", "32");
  const std::map<std::string, std::string> host_specs = {
      {"momentum", "bicgstab(rtol=1e-10,maxit=500)+bjacobi(local=block_jacobi)"},
      {"pressure", "cg(rtol=1e-10,maxit=2000)+bjacobi(local=jacobi)"}};
  const std::map<std::string, std::string> device_specs = {
      {"momentum", "bicgstab(rtol=1e-10,maxit=500,backend=cuda)+bjacobi(local=block_jacobi)"},
      {"pressure", "cg(rtol=1e-10,maxit=2000,backend=cuda)+bjacobi(local=jacobi)"}};
  IncompressibleSimulation host(config, true), gpu(config, true);
  gpu.reside_on(Backend::cuda);
  systems::SystemSet on_host({.specs = host_specs, .decomposed = true, .speaks = false});
  systems::SystemSet on_device({.specs = device_specs, .decomposed = true, .speaks = false});
  host.declare_systems(on_host);
  gpu.declare_systems(on_device);
  for (long step = 1; step <= 5; ++step) {
    on_host.begin_step(step);
    on_device.begin_step(step);
    const harness::StepResult a = host.advance(on_host), b = gpu.advance(on_device);
    for (const char* name : {"momentum", "du_dt"})
      EXPECT_NEAR(result(b, name), result(a, name), 1e-7 * std::abs(result(a, name))) << name << ", step " << step;
    EXPECT_LT(result(b, "divergence"), 1e-7) << "step " << step;
  }
}

}  // namespace
}  // namespace tb
