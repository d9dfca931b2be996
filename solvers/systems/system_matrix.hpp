#pragma once
// One system's matrix as the systems keep it when its values may live on a
// device: the pattern, laid out once per pattern on both sides, and the
// values on the side they were written on (host or device). A reader asks
// for the values on its side; they are copied there only when that side does
// not hold the current ones, once per change of values. A generation counts
// the changes, so a solver refreshes by it: no comparison of patterns and no
// hash of values for values written on the device.
//
//   written on the host   -> current on the host;    read on the device: one copy there
//   written on the device -> current on the device;  read on the host: one copy back
//   read again, same side  -> nothing moves
//
// Split rows (a decomposed run's piece) add the off-rank blocks, which move
// with the values: written, read and copied on the same side at the same time.
#include <cstddef>
#include <cstdint>

#include "solvers/matrix/bsr.hpp"
#include "solvers/systems/device_storage.hpp"
#include "solvers/systems/linear_systems.hpp"

namespace tb::systems {

// What a solver refreshes by: the pattern's and the values' generations (0: none yet).
struct Generations {
  std::uint64_t pattern = 0;
  std::uint64_t values = 0;
};

class SystemMatrix {
 public:
  explicit SystemMatrix(DeviceStorage& storage);
  ~SystemMatrix();
  SystemMatrix(const SystemMatrix&) = delete;
  SystemMatrix& operator=(const SystemMatrix&) = delete;

  // The pattern of `pattern` (its values are not read): a new pattern
  // generation, its row_ptr and col_idx copied to the device once, the
  // values' memory laid out there (unchanged pattern: nothing; memory
  // reused where the new pattern fits); the host's when the host first holds them.
  void set_pattern(const BsrMatrix& pattern);
  // The same with split rows: the off-rank blocks' pattern too (its values
  // not read), laid out beside the values on both sides.
  void set_pattern(const BsrMatrix& pattern, const BsrMatrix& off_rank);
  // The device's values, to be written in place (values_written_on_device after).
  DeviceValues device_values();
  void values_written_on_device();
  // Values filled on the host: a copy of a's values (on the set pattern) becomes current.
  void values_written_on_host(const BsrMatrix& a);

  // The current values on the host (copied from the device when only it holds them).
  const BsrMatrix& on_host();
  // The pattern as the host holds it; its values are not current (empty until the host first reads them).
  const BsrMatrix& pattern() const { return host_; }
  // The current matrix on the device (values copied there when only the host holds them).
  BsrView on_device();
  // Split rows: the off-rank blocks on the host (current after on_host()) and
  // where on_device() keeps their values (current after it).
  const BsrMatrix& off_rank_on_host() const { return host_off_; }
  const double* off_rank_on_device() const { return static_cast<const double*>(off_values_.data); }

  Generations generations() const { return generations_; }
  // Where on_device()'s arrays are read (DeviceStorage::backend).
  Backend backend() const { return storage_.backend(); }
  bool host_current() const { return host_current_; }
  // Bytes of values the host holds: none until the host first reads or writes them.
  std::size_t host_value_bytes() const { return host_.values.capacity() * sizeof(double); }
  bool device_current() const { return device_current_; }

 private:
  // Device memory: `bytes` in use of `capacity` allocated. A new pattern reuses
  // the capacity it fits in and grows it by a quarter beyond what it needs when
  // it does not, so a pattern that changes a little each step (a moving body's)
  // allocates nothing in steady state.
  struct Buffer {
    void* data = nullptr;
    std::size_t bytes = 0, capacity = 0;
  };
  void require_pattern() const;
  void lay_out(const BsrMatrix& pattern, const BsrMatrix* off_rank);
  void place(Buffer& b, std::size_t bytes);
  void release();

  DeviceStorage& storage_;
  BsrMatrix host_;      // the pattern, and the values as the host last held them (empty until it first does)
  BsrMatrix host_off_;  // split rows' off-rank blocks, the same way (no blocks otherwise)
  std::size_t value_count_ = 0, off_count_ = 0;
  bool split_ = false;
  Buffer row_ptr_, col_idx_, values_, off_values_;
  Generations generations_;
  bool host_current_ = false, device_current_ = false;
};

}  // namespace tb::systems
