#include <gtest/gtest.h>

#include "solvers/factory/partitioned_solver.hpp"
#include "solvers/factory/registry.hpp"

namespace tb {
namespace {

std::string error_of(const std::string& spec) {
  try {
    make_solver(spec);
  } catch (const Error& e) {
    return e.what();
  }
  return "no error";
}

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

TEST(SpecParser, ComponentsAndParameters) {
  const SolverSpec s = parse_spec(" fgmres( restart=30, rtol=1e-1 ,maxit=60 ) + bilu0 ");
  ASSERT_EQ(s.components.size(), 2u);
  EXPECT_EQ(s.components[0].name, "fgmres");
  ASSERT_EQ(s.components[0].params.size(), 3u);
  EXPECT_EQ(s.components[0].params[1].first, "rtol");
  EXPECT_EQ(s.components[0].params[1].second, "1e-1");
  EXPECT_EQ(s.components[1].name, "bilu0");
  EXPECT_TRUE(s.components[1].params.empty());
}

TEST(SpecParser, ParametersAreFoundByName) {
  SolverSpec s = parse_spec("fgmres(restart=30,backend=cuda)+bjacobi(local=bilu0(backend=host))");
  ASSERT_NE(param_value(s.components[0], "backend"), nullptr);
  EXPECT_EQ(*param_value(s.components[0], "backend"), "cuda");
  EXPECT_EQ(param_value(s.components[0], "rtol"), nullptr);
  EXPECT_EQ(find_param(s.components[0], "restart")->second, "30");
  EXPECT_EQ(find_param(s.components[1], "backend"), s.components[1].params.end()) << "inside local's value only";
  EXPECT_TRUE(names_param(s, "backend"));
  EXPECT_TRUE(names_param(s, "backend", "cuda"));
  EXPECT_FALSE(names_param(s, "backend", "host"));
  EXPECT_FALSE(names_param(parse_spec("cg+jacobi"), "backend"));
}

// A decomposed run wraps a preconditioner that needs the whole matrix in block
// Jacobi over the ranks, parameters kept; what already works over ranks stays.
TEST(PartitionedForm, WholeMatrixPreconditionersBecomeBlockJacobisLocalSolver) {
  EXPECT_EQ(partitioned_form("fgmres(restart=30,rtol=1e-1)+bilu0", 2),
            "fgmres(restart=30,rtol=1e-1)+bjacobi(local=bilu0)");
  EXPECT_EQ(partitioned_form("fgmres+async_bilu(build_sweeps=1,apply_sweeps=3)", 3),
            "fgmres+bjacobi(local=async_bilu(build_sweeps=1,apply_sweeps=3))");
  for (const char* kept : {"fgmres+asm(overlap=1,local=bilu0)", "cg+bjacobi(local=parilut)", "gmres+jacobi",
                           "bicgstab+block_jacobi", "cg", "bicgstab_dia", "bicgstab_dia(eps=1e-6)", "cg_stencil"})
    EXPECT_EQ(partitioned_form(kept, 2), kept);
  EXPECT_EQ(partitioned_form("fgmres+bilu0", 1), "fgmres+bilu0");
  EXPECT_THROW(partitioned_form("fgmres+", 2), Error);
}

// A Krylov method's device takes the whole solve (resident over the ranks);
// with asm, or a local solver the user keeps on the host, the method runs on
// the host and the device takes each rank's local solver.
TEST(PartitionedForm, AKrylovMethodsDeviceTakesTheSolveWhereItCanRunThere) {
  EXPECT_EQ(partitioned_form("fgmres(restart=30,backend=cuda,rtol=1e-1)+multicolor(sweeps=2)", 2),
            "fgmres(restart=30,backend=cuda,rtol=1e-1)+bjacobi(local=multicolor(sweeps=2))");
  EXPECT_EQ(partitioned_form("cg(backend=cuda)+block_jacobi", 3), "cg(backend=cuda)+block_jacobi");
  EXPECT_EQ(partitioned_form("cg(backend=cuda)+bjacobi(local=mg,backend=cuda)", 2),
            "cg(backend=cuda)+bjacobi(local=mg)");
  EXPECT_EQ(partitioned_form("fgmres(backend=cuda)+asm(overlap=1,local=async_bilu)", 2),
            "fgmres+asm(overlap=1,local=async_bilu,backend=cuda)");
  EXPECT_EQ(partitioned_form("fgmres(backend=cuda)+bjacobi(local=bilu0,backend=host)", 2),
            "fgmres+bjacobi(local=bilu0,backend=host)");
  EXPECT_EQ(partitioned_form("fgmres(backend=host)+bilu0", 2), "fgmres(backend=host)+bjacobi(local=bilu0)");
  EXPECT_EQ(partitioned_form("fgmres(backend=cuda)+multicolor", 1), "fgmres(backend=cuda)+multicolor");
  EXPECT_EQ(partitioned_form("bicgstab_dia(backend=cuda)", 2), "bicgstab_dia(backend=cuda)");
}

// A local solver with no device kernels is refused by name when the Schwarz method is to run it on one.
TEST(SchwarzLocalSolver, OneWithoutDeviceKernelsIsRefusedOnTheDevice) {
  for (const char* spec : {"fgmres+bjacobi(local=bilu0,backend=cuda)", "fgmres+asm(local=parilu,backend=cuda)"}) {
    try {
      make_solver(spec);
      ADD_FAILURE() << spec << " accepted";
    } catch (const Error& e) {
      const std::string what = e.what();
      EXPECT_NE(what.find(".backend: given cuda"), std::string::npos) << what;
      EXPECT_NE(what.find("has no cuda kernels"), std::string::npos) << what;
    }
  }
  EXPECT_NO_THROW(make_solver("fgmres+bjacobi(local=multicolor,backend=host)"));
}

TEST(SpecParser, SyntaxErrorsGiveColumn) {
  EXPECT_TRUE(contains(error_of("gmres(restart=30"), "column 17")) << error_of("gmres(restart=30");
  EXPECT_TRUE(contains(error_of("gmres(restart)"), "expected '=' after parameter 'restart'"));
  EXPECT_TRUE(contains(error_of("gmres(restart=)"), "expected a value"));
  EXPECT_TRUE(contains(error_of("gmres bilu0"), "expected '+'"));
  EXPECT_TRUE(contains(error_of(""), "expected a solver name"));
  EXPECT_TRUE(contains(error_of("gmres(rtol=1,rtol=2)"), "given twice"));
}

TEST(Registry, UnknownNamesListWhatIsAllowed) {
  const std::string e = error_of("gmress+bilu0");
  EXPECT_TRUE(contains(e, "unknown Krylov method 'gmress'")) << e;
  EXPECT_TRUE(contains(e, "did you mean 'gmres'")) << e;
  EXPECT_TRUE(contains(e, "bicgstab")) << e;
  const std::string p = error_of("gmres+ilu7");
  EXPECT_TRUE(contains(p, "unknown preconditioner 'ilu7'")) << p;
  EXPECT_TRUE(contains(p, "block_jacobi")) << p;
  EXPECT_TRUE(contains(error_of("bilu0"), "write e.g. richardson+bilu0"));
  EXPECT_TRUE(contains(error_of("gmres+bilu0+jacobi"), "at most one '+'"));
}

TEST(Registry, UnknownAndBadParameters) {
  const std::string e = error_of("gmres(restrat=10)");
  EXPECT_TRUE(contains(e, "no parameter 'restrat'")) << e;
  EXPECT_TRUE(contains(e, "did you mean 'restart'")) << e;
  // One shape for every refused value: spec 'TEXT': COMPONENT.PARAM: given VALUE, allowed DOMAIN.
  EXPECT_EQ(error_of("gmres(restart=ten)"),
            "spec 'gmres(restart=ten)': gmres.restart: given ten, allowed an integer "
            "in [1, 1000]");
  EXPECT_EQ(error_of("cg(rtol=abc)"),
            "spec 'cg(rtol=abc)': cg.rtol: given abc, allowed a finite real number in [0, 1)");
  EXPECT_TRUE(contains(error_of("cg(backend=gpu)"), "one of host, cuda"));
  EXPECT_TRUE(contains(error_of("cg(rtol=-1)"), "cg.rtol: given -1, allowed a finite real number in [0, 1)"));
  EXPECT_TRUE(contains(error_of("gmres(restart=0)"), "gmres.restart: given 0, allowed an integer in [1, 1000]"));
  EXPECT_TRUE(contains(error_of("bicgstab+jacobi(omega=2)"), "jacobi has no parameter 'omega'"));
}

// Out-of-domain parameters: each refused at make time, naming component and
// parameter.
TEST(Registry, OutOfDomainValuesAreRefusedNamingTheParameter) {
  const std::vector<std::pair<std::string, std::string>> bad = {
      {"gmres(restart=-1)", "gmres.restart: given -1, allowed an integer in [1, 1000]"},
      {"gmres(restart=4294967295)", "gmres.restart: given 4294967295, allowed an integer in [1, 1000]"},
      {"gmres(restart=2000000000)", "gmres.restart: given 2000000000, allowed"},
      {"fgmres(restart=99999999999999999999999)", "fgmres.restart: given 99999999999999999999999, allowed"},
      {"gmres(restart=1001)", "gmres.restart: given 1001"},
      {"gmres(restart=2.5)", "gmres.restart: given 2.5, allowed an integer"},
      {"cg(stagnation=-1)", "cg.stagnation: given -1, allowed an integer in [0, 1000000]"},
      {"cg(dtol=-1)", "cg.dtol: given -1, allowed a finite real number > 1"},
      {"cg(dtol=1)", "cg.dtol: given 1, allowed a finite real number > 1"},
      {"cg(maxit=0)", "cg.maxit: given 0, allowed an integer in [1, 1000000]"},
      {"cg(maxit=1000001)", "cg.maxit: given 1000001"},
      {"cg(rtol=1)", "cg.rtol: given 1, allowed a finite real number in [0, 1)"},
      {"cg(rtol=nan)", "cg.rtol: given nan"},
      {"cg(atol=-1e-3)", "cg.atol: given -1e-3, allowed a finite real number >= 0"},
      {"cg(atol=inf)", "cg.atol: given inf"},
      {"richardson(omega=0)", "richardson.omega: given 0, allowed a finite real number in (0, 2)"},
      {"richardson(omega=2)", "richardson.omega: given 2"},
      {"gmres+multicolor(sweeps=0)", "multicolor.sweeps: given 0, allowed an integer in [1, 1000]"},
      {"gmres+async_bilu(chunk=0)", "async_bilu.chunk: given 0, allowed an integer in [1, 1000000]"},
      {"gmres+async_ilu(apply_sweeps=-1)", "async_ilu.apply_sweeps: given -1, allowed an integer in [0, 1000]"},
      {"gmres+parilut(fill=0.5)", "parilut.fill: given 0.5, allowed a finite real number in [1, 100]"},
      {"gmres+parilut(steps=-1)", "parilut.steps: given -1"},
      {"gmres+parilu(sweeps=0)", "parilu.sweeps: given 0"},
      {"gmres+ilut(droptol=2)", "ilut.droptol: given 2, allowed a finite real number in [0, 1]"},
      {"gmres+ilut(fill=0)", "ilut.fill: given 0, allowed an integer in [1, 1000]"},
      {"gmres+fgbilu(nx=-4)", "fgbilu.nx: given -4, allowed an integer in [0, 1000000]"},
      {"bicgstab_dia(min_fill=1.5)", "bicgstab_dia.min_fill: given 1.5, allowed a finite real number in [0, 1]"},
      {"bicgstab_dia(eps=-1)", "bicgstab_dia.eps: given -1, allowed a finite real number >= 0"},
      {"cg_stencil(nx=0,ny=4,nz=4,maxit=0)", "cg_stencil.maxit: given 0"},
      {"cg_stencil(nx=-1,ny=4,nz=4)", "cg_stencil.nx: given -1, allowed an integer in [0, 1000000]"},
      {"petsc(restart=0)", "petsc.restart: given 0, allowed an integer in [1, 1000]"},
  };
  for (const auto& [spec, part] : bad) {
    const std::string e = error_of(spec);
    EXPECT_TRUE(contains(e, "spec '" + spec + "': " + part)) << spec << " -> " << e;
  }
  // A component's own refusal is quoted with the specification too.
  const std::string grid = error_of("cg_stencil(nx=100000,ny=100000,nz=1)");
  EXPECT_TRUE(contains(grid,
                       "spec 'cg_stencil(nx=100000,ny=100000,nz=1)': cg_stencil: nx*ny*nz: given 10000000000 "
                       "cells, allowed at most 2147483647"))
      << grid;
}

TEST(Registry, BoundaryValuesAreAccepted) {
  for (const char* spec :
       {"gmres(restart=1)", "gmres(restart=1000)", "fgmres(restart=1000,maxit=1000000,stagnation=1000000)",
        "cg(rtol=0,atol=1e-6)", "cg(rtol=0.999999)", "cg(dtol=1.0000001)", "cg(stagnation=0,maxit=1)",
        "richardson(omega=1.999)+jacobi", "richardson(omega=1e-3)", "bicgstab+parilut(fill=1,steps=0,sweeps=1000)",
        "bicgstab+parilut(fill=100)", "gmres+ilut(droptol=0,fill=1000)", "gmres+ilut(droptol=1,fill=1)",
        "fgmres+async_bilu(build_sweeps=0,apply_sweeps=1000,chunk=1000000)", "gmres+multicolor(sweeps=1000)",
        "gmres+fgbilu(nx=1000000)", "bicgstab_dia(min_fill=0,eps=0)", "bicgstab_dia(min_fill=1)",
        "cg_stencil(nx=1,ny=1,nz=1)"})
    EXPECT_EQ(error_of(spec), "no error") << spec;
  auto s = make_solver("gmres(restart=1000,rtol=0,atol=2.5,maxit=1000000,dtol=1.5,stagnation=0)");
  EXPECT_EQ(s->method().stop().rtol, 0.0);
  EXPECT_EQ(s->method().stop().atol, 2.5);
  EXPECT_EQ(s->method().stop().maxit, 1000000);
  EXPECT_EQ(s->method().stop().dtol, 1.5);
  EXPECT_EQ(s->method().stop().stagnation_window, 0);
}

TEST(Registry, EveryNameBuildsWithItsDefaults) {
  // The registry refuses to register a default outside its domain; each name
  // with no parameters must therefore build (cg_stencil needs its grid, petsc its library).
  for (const auto& n : Registry::builtin().krylov_names()) EXPECT_EQ(error_of(n), "no error") << n;
  for (const auto& n : Registry::builtin().preconditioner_names()) EXPECT_EQ(error_of("fgmres+" + n), "no error") << n;
  EXPECT_EQ(error_of("bicgstab_dia"), "no error");
  EXPECT_TRUE(contains(error_of("cg_stencil"), "give the grid"));
}

TEST(Registry, HelpShowsEachDomain) {
  const std::string h = Registry::builtin().help();
  EXPECT_TRUE(contains(h, "restart=30  Krylov vectors per cycle [an integer in [1, 1000]]")) << h;
  EXPECT_TRUE(contains(h, "omega=1  damping factor [a finite real number in (0, 2)]")) << h;
  EXPECT_TRUE(contains(h, "dtol=1e8  divergence when ||r|| > dtol ||r0|| [a finite real number > 1]")) << h;
  EXPECT_TRUE(contains(h, "[one of host, cuda]")) << h;
}

TEST(Registry, BuiltSolverCarriesSpecAndDefaults) {
  auto s = make_solver("gmres(restart=12)+jacobi");
  EXPECT_EQ(s->spec(), "gmres(restart=12)+jacobi");
  EXPECT_EQ(s->backend(), Backend::host);
  EXPECT_DOUBLE_EQ(s->method().stop().rtol, 1e-8);
  EXPECT_EQ(s->method().stop().maxit, 1000);
}

TEST(Registry, HostOnlyPreconditionerRefusesCuda) {
  const std::string e = error_of("gmres(backend=cuda)+bilu0");
  EXPECT_TRUE(contains(e, "no cuda backend")) << e;
}

TEST(Registry, HelpListsEveryName) {
  const std::string h = Registry::builtin().help();
  for (const auto& n : Registry::builtin().krylov_names()) EXPECT_TRUE(contains(h, n));
  for (const auto& n : Registry::builtin().preconditioner_names()) EXPECT_TRUE(contains(h, n));
  EXPECT_TRUE(contains(h, "restart=30"));
}

TEST(NearestName, EditDistance) {
  EXPECT_EQ(nearest_name("bicgstb", {"cg", "bicgstab", "gmres"}), "bicgstab");
  EXPECT_EQ(nearest_name("xyz", {"cg", "bicgstab", "gmres"}), "");
}

}  // namespace
}  // namespace tb
