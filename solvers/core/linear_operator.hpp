#pragma once
#include "array.hpp"
#include "types.hpp"

namespace tb {

// y = A x on one backend. Krylov methods see nothing of A but this.
class LinearOperator {
 public:
  virtual ~LinearOperator() = default;
  virtual index_t rows() const = 0;
  virtual Backend backend() const = 0;
  virtual void apply(const Vector& x, Vector& y) const = 0;
};

}  // namespace tb
