// Solves a generated system with a specification from the command line and
// prints the statistics; exits 0 only when the solve converged in more than
// one iteration to the asked tolerance, which a broken link cannot fake.
#include <cstdio>
#include <vector>

#include "solvers/factory/registry.hpp"
#include "solvers/matrix/generate.hpp"
#include "solvers/matrix/generator_spec.hpp"

int main(int argc, char** argv) {
  const char* spec = argc > 1 ? argv[1] : "gmres(restart=30,rtol=1e-8)+bilu0";
  try {
    tb::GeneratedSystem g = tb::generate_system("stencil7:nx=8,ny=8,nz=8,n=3");
    std::vector<double> ones(std::size_t(g.a.cols()), 1.0), b(std::size_t(g.a.rows())), x(b.size(), 0.0);
    tb::spmv_ref(g.a, ones.data(), b.data());
    auto solver = tb::make_solver(spec);
    solver->setup(g.a);
    const tb::SolveStats st = solver->solve(b, x);
    std::printf("%s\n", st.line().c_str());
    const bool ok = st.converged() && st.iterations > 1 && st.final_residual <= 1e-7 * st.initial_residual;
    return ok ? 0 : 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "consumer: %s\n", e.what());
    return 2;
  }
}
