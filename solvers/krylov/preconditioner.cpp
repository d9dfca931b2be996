#include "preconditioner.hpp"

#include "solvers/core/error.hpp"

namespace tb {

void Preconditioner::setup_in_place(const BsrMatrix&, const BsrView&, Backend) {
  throw Error("internal: setup_in_place() on a preconditioner that sets up from values on the host");
}

void Preconditioner::update_in_place(const BsrView&) {
  throw Error("internal: update_in_place() on a preconditioner that reads its values on the host");
}

}  // namespace tb
