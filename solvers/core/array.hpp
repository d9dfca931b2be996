#pragma once
// A contiguous array owned on one backend. Move-only: copies between backends
// are explicit (copy_from / to_host) because they cost PCIe time.
#include <cstddef>
#include <span>
#include <utility>
#include <vector>

#include "backend.hpp"
#include "memory.hpp"

namespace tb {

template <class T>
class Array {
 public:
  Array() = default;
  Array(Backend b, std::size_t n) : backend_(b), size_(n) {
    if (n) data_ = static_cast<T*>(memory::allocate(b, n * sizeof(T)));
  }
  Array(Backend b, std::span<const T> host) : Array(b, host.size()) { copy_from_host(host); }
  ~Array() { memory::release(backend_, data_); }
  Array(Array&& o) noexcept { swap(o); }
  Array& operator=(Array&& o) noexcept {
    Array tmp(std::move(o));
    swap(tmp);
    return *this;
  }
  Array(const Array&) = delete;
  Array& operator=(const Array&) = delete;

  Backend backend() const { return backend_; }
  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  T* data() { return data_; }
  const T* data() const { return data_; }

  // Host-only element access; on a CUDA array these would dereference device memory.
  T& operator[](std::size_t i) { return data_[i]; }
  const T& operator[](std::size_t i) const { return data_[i]; }
  std::span<T> host_span() { return {data_, size_}; }
  std::span<const T> host_span() const { return {data_, size_}; }

  void copy_from_host(std::span<const T> src) {
    copy_checked(src.size());
    memory::copy(data_, backend_, src.data(), Backend::host, size_ * sizeof(T));
  }
  void copy_from(const Array& src) {
    copy_checked(src.size());
    memory::copy(data_, backend_, src.data_, src.backend_, size_ * sizeof(T));
  }
  void copy_to_host(std::span<T> dst) const {
    copy_checked(dst.size());
    memory::copy(dst.data(), Backend::host, data_, backend_, size_ * sizeof(T));
  }
  std::vector<T> to_host() const {
    std::vector<T> v(size_);
    copy_to_host(v);
    return v;
  }
  void set_zero() { memory::zero(backend_, data_, size_ * sizeof(T)); }

 private:
  void swap(Array& o) noexcept {
    std::swap(backend_, o.backend_);
    std::swap(size_, o.size_);
    std::swap(data_, o.data_);
  }
  void copy_checked(std::size_t n) const;

  Backend backend_ = Backend::host;
  std::size_t size_ = 0;
  T* data_ = nullptr;
};

void throw_size_mismatch(std::size_t expected, std::size_t got);

template <class T>
void Array<T>::copy_checked(std::size_t n) const {
  if (n != size_) throw_size_mismatch(size_, n);
}

using Vector = Array<double>;

}  // namespace tb
