#pragma once
// z = M^{-1} r. setup does the symbolic and numeric work once per pattern;
// update redoes only the numeric part for new values on the same pattern.
#include <string>

#include "solvers/core/array.hpp"
#include "solvers/matrix/bsr.hpp"

namespace tb {

class Preconditioner {
 public:
  virtual ~Preconditioner() = default;
  virtual void setup(const BsrMatrix& a, Backend backend) = 0;
  virtual void update(const BsrMatrix& a) = 0;
  // Numeric update from values that already live on the backend of setup (a
  // view whose pointers are there, on the pattern of setup: a system assembled
  // on the device), with no copy to the host and no conversion, reordering or
  // allocation there. Only where updates_in_place(); tb::Error otherwise.
  virtual bool updates_in_place() const { return false; }
  virtual void update_in_place(const BsrView& a);
  // Set-up from the pattern alone (its values are not read) and values that
  // live on `backend` (a view there, on that pattern): the symbolic work on
  // the host's pattern, the numeric work where the values are, so a system
  // assembled on the device never comes to the host. Only where
  // sets_up_in_place(); tb::Error otherwise.
  virtual bool sets_up_in_place() const { return false; }
  virtual void setup_in_place(const BsrMatrix& pattern, const BsrView& a, Backend backend);
  virtual void apply(const Vector& r, Vector& z) const = 0;
  // The backends whose vectors apply() accepts.
  virtual bool supports(Backend b) const = 0;
  // True when M^{-1} changes between applications (asynchronous sweeps, inner
  // iterations): only flexible methods (FGMRES, Richardson) stay correct then.
  virtual bool is_variable() const { return false; }
};

}  // namespace tb
