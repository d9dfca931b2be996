#include <charconv>

#include "registry.hpp"
#include "solvers/async_ilu/preconditioner.hpp"
#include "solvers/core/error.hpp"
#include "solvers/fgbilu/fgbilu.hpp"
#include "solvers/mg/multigrid.hpp"

namespace tb {

namespace {

constexpr int max_levels = 30;

// "auto" (0) or an integer in [2, max_levels].
int parse_levels(const std::string& text) {
  if (text == "auto") return 0;
  int v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size() || v < 2 || v > max_levels)
    throw Error("mg.levels: given " + text + ", allowed auto or an integer in [2, " + std::to_string(max_levels) + "]");
  return v;
}

// The finest level's ILU smoothers, built by their own rooms: FGBILU's wavefront
// BILU(0) (the same factors as bilu0), and the asynchronous ILU with its
// reproducible synchronous schedule, so that M^{-1} stays a fixed operator.
std::unique_ptr<Preconditioner> ilu_smoother(const std::string& name, const ParamValues& p) {
  if (name == "fgbilu")
    return fgbilu::make_preconditioner("auto", fgbilu::GridShape{p.integer("nx"), p.integer("ny"), p.integer("nz")});
  async_ilu::Options o;
  o.block = false;
  o.schedule = async_ilu::Schedule::synchronous;
  return make_async_ilu(o);
}

}  // namespace

void register_mg(Registry& r) {
  r.add(PreconditionerEntry{
      "mg",
      "geometric multigrid on a structured scalar 7-point system (pressure Poisson): Galerkin coarse levels, "
      "semi-coarsening where the grid is stretched, dense coarsest solve (docs/multigrid.md)",
      {{"levels",
        ParamType::text,
        "auto",
        "levels, finest and coarsest included: auto (until coarse_size) or 2..30",
        {}},
       {"smoother",
        ParamType::choice,
        "chebyshev",
        "chebyshev: polynomial in D^-1 A; jacobi: damped; gauss_seidel: multicolour (red-black on the finest level); "
        "fgbilu, async_ilu: that ILU on the finest level (Chebyshev below)",
        {"chebyshev", "jacobi", "gauss_seidel", "fgbilu", "async_ilu"}},
       {"sweeps", ParamType::integer, "1", "smoothing sweeps before and after the coarse correction", {}, {1, 100}},
       {"degree", ParamType::integer, "3", "degree of the Chebyshev polynomial", {}, {1, 20}},
       {"cycle", ParamType::choice, "v", "v or w cycle", {"v", "w"}},
       {"coarse_size",
        ParamType::integer,
        "512",
        "largest coarsest level (cells); solved by its dense inverse",
        {},
        {1, double(mg::max_direct_cells)}},
       {"semicoarsening",
        ParamType::real,
        "0.5",
        "coarsen a direction whose coupling is at least this fraction of the strongest's (0: every direction)",
        {},
        {0, 1}},
       {"remainder",
        ParamType::choice,
        "galerkin",
        "entries outside the 7-point stencil (immersed-boundary rows, periodic columns): galerkin: in the coarse "
        "operators too; smoother: in the finest level's smoother and residual only",
        {"galerkin", "smoother"}},
       {"graph", ParamType::boolean, "true", "cuda: replay the cycle as a CUDA graph", {}},
       // The shape is checked against the matrix at setup.
       {"nx", ParamType::integer, "0", "grid cells in i (0: inferred from the pattern)", {}, {0, 1000000}},
       {"ny", ParamType::integer, "0", "grid cells in j (0: inferred)", {}, {0, 1000000}},
       {"nz", ParamType::integer, "0", "grid cells in k (0: inferred)", {}, {0, 1000000}}},
      [](const ParamValues& p) {
        mg::Options o;
        o.hierarchy.max_levels = parse_levels(p.text("levels"));
        o.hierarchy.coarse_size = p.integer("coarse_size");
        o.hierarchy.semicoarsening = p.real("semicoarsening");
        o.hierarchy.remainder_in_galerkin = p.text("remainder") == "galerkin";
        o.grid = StructuredIndex{p.integer("nx"), p.integer("ny"), p.integer("nz")};
        o.sweeps = p.integer("sweeps");
        o.degree = p.integer("degree");
        o.cycle = p.text("cycle") == "w" ? mg::Cycle::w : mg::Cycle::v;
        o.graph = p.boolean("graph");
        const std::string& s = p.text("smoother");
        std::unique_ptr<Preconditioner> ilu;
        if (s == "fgbilu" || s == "async_ilu") {
          o.smoother = mg::Smoother::ilu;
          ilu = ilu_smoother(s, p);
        } else {
          o.smoother = s == "jacobi"         ? mg::Smoother::jacobi
                       : s == "gauss_seidel" ? mg::Smoother::gauss_seidel
                                             : mg::Smoother::chebyshev;
        }
        return mg::make_preconditioner(o, std::move(ilu));
      }});
}

}  // namespace tb
