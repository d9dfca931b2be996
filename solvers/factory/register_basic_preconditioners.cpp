#include "registry.hpp"
#include "solvers/precond/basic.hpp"

namespace tb {

void register_basic_preconditioners(Registry& r) {
  r.add(PreconditionerEntry{"identity", "no preconditioning", {}, [](const ParamValues&) { return make_identity(); }});
  r.add(PreconditionerEntry{"jacobi", "point Jacobi: inverse of the scalar diagonal", {}, [](const ParamValues&) {
                              return make_point_jacobi();
                            }});
  r.add(PreconditionerEntry{"block_jacobi", "exact inverses of the diagonal blocks", {}, [](const ParamValues&) {
                              return make_block_jacobi();
                            }});
  r.add(PreconditionerEntry{
      "bilu0", "sequential block ILU(0), natural order (host; the reference of every ILU)", {}, [](const ParamValues&) {
        return make_bilu0();
      }});
}

}  // namespace tb
