#pragma once
// Numbers, arrays of numbers and strings packed into bytes and read back, in
// the machine's own byte order: an exact round trip of every bit, for data one
// process hands another of the same run (rank 0 sending each rank its piece of
// a mesh). Every read is checked against the bytes left, so a short or
// corrupt buffer is an error naming what was being read, never a read or an
// allocation past its end.
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "solvers/core/error.hpp"

namespace tb {

class ByteWriter {
 public:
  template <class T>
  void put(T v) {
    static_assert(std::is_trivially_copyable_v<T>, "plain values only");
    bytes_.append(reinterpret_cast<const char*>(&v), sizeof v);
  }
  template <class T>
  void put_array(std::span<const T> v) {
    static_assert(std::is_trivially_copyable_v<T>, "arrays of plain values only");
    put(std::uint64_t(v.size()));
    if (!v.empty()) bytes_.append(reinterpret_cast<const char*>(v.data()), v.size_bytes());
  }
  template <class T>
  void put_array(const std::vector<T>& v) {
    put_array(std::span<const T>(v));
  }
  void put_string(std::string_view s) {
    put(std::uint64_t(s.size()));
    bytes_.append(s);
  }
  // Bytes as they are, no length before them (a file's magic line).
  void put_bytes(std::string_view s) { bytes_.append(s); }
  // The bytes so far (a checksum over them, say), and all of them, handed over.
  std::string_view bytes() const { return bytes_; }
  std::string take() { return std::move(bytes_); }

 private:
  std::string bytes_;
};

class ByteReader {
 public:
  // `what` names the buffer in errors, e.g. "the mesh piece from rank 0".
  ByteReader(std::string_view bytes, std::string what) : bytes_(bytes), what_(std::move(what)) {}

  template <class T>
  T get(const char* item) {
    static_assert(std::is_trivially_copyable_v<T>, "plain values only");
    T v;
    need(sizeof v, item);
    std::memcpy(&v, bytes_.data(), sizeof v);
    bytes_.remove_prefix(sizeof v);
    return v;
  }
  template <class T>
  std::vector<T> get_array(const char* item) {
    static_assert(std::is_trivially_copyable_v<T>, "arrays of plain values only");
    const auto n = get<std::uint64_t>(item);
    if (n > bytes_.size() / sizeof(T)) fail(item, n * sizeof(T));
    std::vector<T> v(n);
    if (n > 0) std::memcpy(v.data(), bytes_.data(), n * sizeof(T));  // an empty vector's data() may be null
    bytes_.remove_prefix(n * sizeof(T));
    return v;
  }
  std::string get_string(const char* item) {
    const auto n = get<std::uint64_t>(item);
    need(n, item);
    std::string s(bytes_.substr(0, n));
    bytes_.remove_prefix(n);
    return s;
  }
  std::size_t left() const { return bytes_.size(); }
  bool done() const { return bytes_.empty(); }
  // tb::Error "WHAT: WHY", for what the reader's caller finds wrong in the bytes.
  [[noreturn]] void fail(const std::string& why) const { throw Error(what_ + ": " + why); }

 private:
  void need(std::uint64_t n, const char* item) const {
    if (n > bytes_.size()) fail(item, n);
  }
  [[noreturn]] void fail(const char* item, std::uint64_t n) const {
    fail(std::string("truncated in ") + item + " (" + std::to_string(n) + " bytes needed, " +
         std::to_string(bytes_.size()) + " left)");
  }

  std::string_view bytes_;
  std::string what_;
};

}  // namespace tb
