#include "registry.hpp"
#include "solvers/parilut/parilut.hpp"

namespace tb {

namespace {
parilut::Kernel kernel_of(const ParamValues& p) {
  return p.text("kernel") == "ref" ? parilut::Kernel::ref : parilut::Kernel::omp;
}
const ParamInfo kernel_param{"kernel",
                             ParamType::choice,
                             "omp",
                             "sweeps and candidate search with OpenMP, or the sequential reference (in-place, "
                             "natural order: one sweep is the exact ILU on the pattern)",
                             {"omp", "ref"}};
}  // namespace

void register_parilut(Registry& r) {
  r.add(PreconditionerEntry{
      "parilut",
      "threshold ILU by fixed-point sweeps with candidate search and Sampleselect (seed 003; host, or every step "
      "on the device with the Krylov method's backend=cuda)",
      // fill <= 100 bounds the factors at 100 x nnz(A); steps and sweeps <= 1000 bound the setup time.
      {{"fill", ParamType::real, "2", "nnz of L and U each at most fill x that of A's triangle", {}, {1, 100}},
       {"steps", ParamType::integer, "5", "add / remove cycles", {}, {0, 1000}},
       {"sweeps", ParamType::integer, "1", "fixed-point sweeps after each add and each remove", {}, {1, 1000}},
       {"select",
        ParamType::choice,
        "approx",
        "threshold by one approximate Sampleselect level, or exact",
        {"approx", "exact"}},
       kernel_param,
       // The device pipeline's candidate buffer: 100 x the budget bounds its memory.
       {"candidate_room",
        ParamType::real,
        "4",
        "backend=cuda: room for candidates per step, in multiples of the fill budget",
        {},
        {0.01, 100}}},
      [](const ParamValues& p) {
        parilut::ParilutOptions o;
        o.fill = p.real("fill");
        o.steps = p.integer("steps");
        o.sweeps = p.integer("sweeps");
        o.exact_select = p.text("select") == "exact";
        o.kernel = kernel_of(p);
        o.candidate_room = p.real("candidate_room");
        return parilut::make_parilut(o);
      }});
  r.add(PreconditionerEntry{
      "parilu",
      "ILU(0) by fixed-point sweeps on A's pattern (Chow-Patel ParILU, seed 003 Alg. 1; host)",
      {{"sweeps", ParamType::integer, "3", "fixed-point sweeps from L = tril(A)/diag, U = triu(A)", {}, {1, 1000}},
       kernel_param},
      [](const ParamValues& p) { return parilut::make_parilu(p.integer("sweeps"), kernel_of(p)); }});
  r.add(PreconditionerEntry{
      "ilut",
      "Eigen's IncompleteLUT, Saad's dual-threshold ILUT (sequential reference for threshold ILU)",
      // droptol 1 already drops every entry but the diagonal; fill <= 1000 bounds the factors.
      {{"droptol", ParamType::real, "1e-4", "drop entries below droptol x the row's norm", {}, {0, 1}},
       {"fill", ParamType::integer, "10", "keep at most fill x (nnz of A's row) per row", {}, {1, 1000}}},
      [](const ParamValues& p) { return parilut::make_eigen_ilut(p.real("droptol"), p.integer("fill")); }});
}

}  // namespace tb
