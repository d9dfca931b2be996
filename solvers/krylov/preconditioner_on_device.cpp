#include "preconditioner_on_device.hpp"

#include <utility>

#include "solvers/core/error.hpp"

namespace tb {

PreconditionerOnDevice::PreconditionerOnDevice(std::unique_ptr<Preconditioner> inner, Backend device,
                                               const std::string& name)
    : inner_(std::move(inner)), device_(device) {
  if (!inner_) throw Error("internal: PreconditionerOnDevice without a preconditioner");
  if (device_ == Backend::host) throw Error("internal: PreconditionerOnDevice on the host");
  if (!inner_->supports(device_))
    throw Error("preconditioner '" + name + "' has no " + std::string(to_string(device_)) +
                " kernels: it runs on the host only");
}

void PreconditionerOnDevice::setup(const BsrMatrix& a, Backend backend) {
  if (backend != Backend::host)
    throw Error("internal: PreconditionerOnDevice serves host vectors, given " + std::string(to_string(backend)));
  inner_->setup(a, device_);
  r_ = Vector(device_, std::size_t(a.rows()));
  z_ = Vector(device_, std::size_t(a.rows()));
}

void PreconditionerOnDevice::apply(const Vector& r, Vector& z) const {
  r_.copy_from(r);
  inner_->apply(r_, z_);
  z.copy_from(z_);
}

}  // namespace tb
