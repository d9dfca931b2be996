// Bad input to tb-incomp and tb-comp2d (docs/harness.md): each example is refused with
// exit status 2 and a message naming the place and the key, before anything is
// written: the output folder does not exist afterwards.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "miniapp_descriptions.hpp"
#include "miniapps/compressible/comp_case.hpp"
#include "miniapps/compressible/comp_simulation.hpp"
#include "miniapps/incompressible/incomp_case.hpp"
#include "miniapps/incompressible/incomp_simulation.hpp"
#include "refused_run.hpp"
#include "run_files.hpp"
#include "solvers/core/backend.hpp"

namespace tb {
namespace {

namespace fs = std::filesystem;
using test::comp_app;
using test::expect_refused;
using test::incomp_app;

// A case file in a fresh folder; the runs write into a sibling "out".
struct CaseFolder {
  explicit CaseFolder(const std::string& name) : dir(test::fresh_dir("tb-refused", name)) {
    fs::create_directories(dir);
  }
  ~CaseFolder() { fs::remove_all(dir); }
  std::string write(const std::string& text) const {
    std::ofstream(dir / "case.toml") << text;
    return (dir / "case.toml").string();
  }
  fs::path out() const { return dir / "out"; }
  fs::path dir;
};

TEST(RefusedInput, ADirectoryAsTheCaseFile) {
  CaseFolder f("dir");
  expect_refused(incomp_app(), {f.dir.string(), "--steps", "2"}, f.out(),
                 {f.dir.string() + ": the case file: given a directory, allowed a regular TOML file"});
}

TEST(RefusedInput, NegativeStepsInTheCaseFileAndOnTheCommandLine) {
  CaseFolder f("steps");
  const std::string file = f.write("[run]\nsteps = -5\n");
  expect_refused(incomp_app(), {file}, f.out(), {file + ":2: run.steps: given -5, allowed >= 1"});
  expect_refused(incomp_app(), {"--steps", "-1"}, f.out(), {"--steps: given '-1', allowed an integer >= 1"});
  expect_refused(incomp_app(), {"--steps", "0"}, f.out(), {"--steps: given '0', allowed an integer >= 1"});
  expect_refused(incomp_app(), {"--dump-systems", "2,0"}, f.out(),
                 {"--dump-systems: given '0', allowed an integer >= 1"});
}

TEST(RefusedInput, NegativePeriodsAndTolerances) {
  CaseFolder f("periods");
  std::string file = f.write("[run]\nsteps = 2\noutput_every = -1\n");
  expect_refused(incomp_app(), {file}, f.out(), {file + ":3: run.output_every: given -1, allowed >= 0"});
  expect_refused(incomp_app(), {"--set", "run.checkpoint_every=-3"}, f.out(),
                 {"--set: run.checkpoint_every: given -3, allowed >= 0"});
  file = f.write("[time]\n\nsteady_tol = -1e-5\n");
  expect_refused(incomp_app(), {file}, f.out(), {file + ":3: time.steady_tol: given -1e-05, allowed >= 0"});
  expect_refused(incomp_app(), {"--set", "run.max_growth=-1"}, f.out(),
                 {"--set: run.max_growth: given -1, allowed >= 0"});
}

TEST(RefusedInput, BoundaryNamesAndCrossKeyChecksNameTheKeys) {
  CaseFolder f("bc");
  expect_refused(incomp_app(), {"--set", "bc.xmax.type=outlet"}, f.out(),
                 {"--set: bc.xmax.type: given \"outlet\", allowed one of wall, inflow, outflow, periodic"});
  const std::string file = f.write("[bc.xmin]\ntype = \"periodic\"\n");
  expect_refused(incomp_app(), {file}, f.out(),
                 {"bc.xmax.type: given \"wall\" (the default), allowed \"periodic\" as bc.xmin.type is"});
  expect_refused(incomp_app(), {"--set", "grid.lx=0"}, f.out(), {"--set: grid.lx: given 0, allowed > 0"});
}

// bicgstab_dia takes scalar matrices only: the block momentum system is refused
// before the first step, named by where the specification was given.
TEST(RefusedInput, ASolverThatCannotTakeItsSystem) {
  CaseFolder f("solver");
  const std::string file = f.write("[solver]\nmomentum = \"bicgstab_dia\"\n");
  expect_refused(incomp_app(), {file}, f.out(),
                 {file + ":2: solver.momentum: given \"bicgstab_dia\", allowed a solver that takes the linear system "
                         "'momentum' (block size 2",
                  "block size 1"});
  expect_refused(incomp_app(), {"--set", "solver.momentum=bicgstab_dia"}, f.out(), {"--set: solver.momentum"});
  // A specification that does not build is refused where it is given.
  expect_refused(incomp_app(), {"--set", "solver.pressure=gmress"}, f.out(),
                 {"--set: solver.pressure: given \"gmress\", allowed a solver specification", "did you mean 'gmres'"});
}

// A bad --ab or --shadow is found before the baseline run starts: nothing of it is written.
TEST(RefusedInput, ABadAbOrShadowSpecificationBeforeTheBaseline) {
  CaseFolder f("ab");
  expect_refused(incomp_app(), {"--steps", "2", "--ab", "cg+jacobi", "--ab", "momentum=bicgstab_dia"}, f.out(),
                 {"--ab: solver.momentum: given \"bicgstab_dia\"", "block size 2"});
  expect_refused(incomp_app(), {"--steps", "2", "--ab", "momentum=gmres(restart=x)"}, f.out(), {"--ab", "restart"});
  expect_refused(incomp_app(), {"--steps", "2", "--shadow", "momentum=bicgstab_dia"}, f.out(),
                 {"--shadow: solver.momentum: given \"bicgstab_dia\""});
  expect_refused(incomp_app(), {"--steps", "2", "--shadow", "pressure=gmress"}, f.out(), {"--shadow", "gmress"});
}

TEST(RefusedInput, ACudaBackendWithoutADevice) {
  if (cuda_device_count() > 0) GTEST_SKIP() << "a CUDA device is present: backend=cuda is allowed";
  CaseFolder f("cuda");
  expect_refused(
      incomp_app(), {"--set", "solver.pressure=cg(backend=cuda)+jacobi"}, f.out(),
      {"--set: solver.pressure: given \"cg(backend=cuda)+jacobi\"", "backend=cuda: " + cuda_unavailable_reason()});
}

// The one switch to the GPU (run.backend = cuda, --backend cuda) without a
// CUDA build or a visible device: refused before anything is written, the
// place and the reason named; a backend that is neither is refused by the key's domain.
TEST(RefusedInput, TheCudaSwitchWithoutADevice) {
  if (cuda_device_count() > 0) GTEST_SKIP() << "a CUDA device is present: run.backend = cuda is allowed";
  CaseFolder f("cuda-switch");
  const std::string reason = cuda_unavailable_reason();
  for (const auto& app : {incomp_app(), comp_app()}) {
    expect_refused(app, {"--backend", "cuda"}, f.out(), {"--backend: run.backend: given \"cuda\"", reason});
    expect_refused(app, {"--set", "run.backend=cuda"}, f.out(), {"--set: run.backend: given \"cuda\"", reason});
  }
  const std::string file = f.write("[run]\nsteps = 2\nbackend = \"cuda\"\n");
  expect_refused(incomp_app(), {file}, f.out(), {file + ":3: run.backend: given \"cuda\"", reason});
  expect_refused(incomp_app(), {"--backend", "gpu"}, f.out(), {"run.backend", "gpu", "host", "cuda"});
}

// The autopilot goes on without the candidates that cannot take the system;
// with none left it cannot run, and that is found before the first step.
TEST(RefusedInput, AnAutopilotWhoseEveryCandidateIsRefused) {
  CaseFolder f("autopilot");
  const std::string file =
      f.write("[run]\nsteps = 2\n[solver.flow.autopilot]\ncandidates = [\"bicgstab_dia\", \"fgmres+fgbilu\"]\n");
  expect_refused(comp_app(), {file}, f.out(),
                 {file + ":3: solver.flow: given \"autopilot(candidates=[bicgstab_dia; fgmres+fgbilu])\"",
                  "every autopilot candidate was refused", "fgbilu:"});
}

TEST(RefusedInput, FgbiluOnAnUnstructuredMesh) {
  CaseFolder f("fgbilu");
  expect_refused(comp_app(), {"--set", "solver.flow=fgmres+fgbilu"}, f.out(),
                 {"--set: solver.flow: given \"fgmres+fgbilu\"", "(block size 4, 3483 block rows)", "structured"});
}

// One node of the shipped cylinder moved across its neighbours: tb-mesh info's
// checks find overlapping cells, and tb-comp2d refuses the mesh.
TEST(RefusedInput, ATangledMesh) {
  CaseFolder f("tangled");
  std::ifstream in(std::string(TB_SOURCE_DIR) + "/inputs/meshes/cylinder_coarse.msh");
  std::stringstream text;
  text << in.rdbuf();
  std::string mesh = text.str();
  const std::string node = "\n9 0.4975923633251292 0.04900857027615269 0\n";
  ASSERT_NE(mesh.find(node), std::string::npos);
  mesh.replace(mesh.find(node), node.size(), "\n9 0.55 -0.3 0\n");
  const std::string path = (f.dir / "tangled.msh").string();
  std::ofstream(path) << mesh;
  const std::string file = f.write("[mesh]\nfile = \"" + path + "\"\n");
  expect_refused(comp_app(), {file, "--steps", "2"}, f.out(),
                 {file + ":2: mesh.file: given \"" + path + "\", allowed a mesh that passes the checks of tb-mesh info",
                  "the cells overlap"});
  // A directory is no mesh file.
  expect_refused(comp_app(), {"--set", "mesh.file=" + f.dir.string()}, f.out(),
                 {"--set: mesh.file: given \"" + f.dir.string() + "\", allowed an existing regular file"});
}

TEST(RefusedInput, CrossKeyChecksOfTheCompressibleCase) {
  CaseFolder f("cfl");
  const std::string file = f.write("[cfl]\nmin = 50\nmax = 40\n");
  expect_refused(comp_app(), {file}, f.out(),
                 {file + ":3: cfl.max: given 40, allowed >= cfl.min = 50 (" + file + ":2)"});
  expect_refused(comp_app(), {"--set", "scheme.order=3"}, f.out(),
                 {"--set: scheme.order: given 3, allowed one of 1, 2"});
  expect_refused(comp_app(), {"--set", "cfl.cut=1"}, f.out(), {"--set: cfl.cut: given 1, allowed > 0 and < 1"});
  expect_refused(comp_app(), {"--set", "cfl.growth=0.5"}, f.out(),
                 {"--set: cfl.growth: given 0.5, allowed 0 (by jacobian.form) or between 1 and 100"});
  expect_refused(comp_app(), {"--set", "jacobian.form=first_order_then_matrix_free", "--set", "cfl.stall_steps=0"},
                 f.out(),
                 {"--set: jacobian.form: given \"first_order_then_matrix_free\", allowed another form with "
                  "cfl.stall_steps = 0 (--set) (it waits for a stall)"});
  const std::string markers = f.write("[boundary]\nwall = \"cylinder,body\"\n");
  expect_refused(comp_app(), {markers}, f.out(),
                 {markers + ":2: boundary.wall: given \"cylinder,body\", allowed a comma-separated list of the mesh's "
                            "markers ('cylinder', 'farfield'); 'body' is not a marker of the mesh"});
}

// The same runs with good input still run (the checks refuse only what they should).
TEST(RefusedInput, AGoodCaseStillRuns) {
  CaseFolder f("good");
  const auto r = test::run_captured(incomp_app(), {"--steps", "2", "--set", "run.progress=false", "--set", "grid.nx=8",
                                                   "--set", "grid.ny=8", "--out", f.out().string()});
  EXPECT_EQ(r.status, 0) << r.error;
  EXPECT_TRUE(fs::exists(f.out() / "steps.csv"));
  EXPECT_EQ(test::read_csv(f.out() / "steps.csv").size(), 3u);
}

}  // namespace
}  // namespace tb
