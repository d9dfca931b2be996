#pragma once
// A preconditioner set up and applied on a device for a method whose vectors
// live on the host (docs/distributed.md: each rank's subdomain solver on its own GPU while
// the distributed Krylov method, its products and halo exchanges stay on the
// host). Each apply copies r to the device and z back: 2n doubles over the bus
// against the local solver's sweeps over the whole factor on the device.
#include <memory>
#include <string>

#include "preconditioner.hpp"

namespace tb {

class PreconditionerOnDevice final : public Preconditioner {
 public:
  // name: the inner preconditioner as the user wrote it, for the refusal when
  // it has no kernels on `device`.
  PreconditionerOnDevice(std::unique_ptr<Preconditioner> inner, Backend device, const std::string& name);
  // backend: where the caller's vectors live, the host.
  void setup(const BsrMatrix& a, Backend backend) override;
  void update(const BsrMatrix& a) override { inner_->update(a); }
  void apply(const Vector& r, Vector& z) const override;
  bool supports(Backend b) const override { return b == Backend::host; }
  bool is_variable() const override { return inner_->is_variable(); }

 private:
  std::unique_ptr<Preconditioner> inner_;
  Backend device_;
  mutable Vector r_, z_;  // the device's copies, sized at set-up
};

}  // namespace tb
