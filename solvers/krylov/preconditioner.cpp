#include "preconditioner.hpp"

#include "solvers/core/error.hpp"

namespace tb {

void Preconditioner::update_in_place(const BsrView&) {
  throw Error("internal: update_in_place() on a preconditioner that reads its values on the host");
}

}  // namespace tb
