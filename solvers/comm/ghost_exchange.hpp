#pragma once
// Extended vectors and the exchange that fills their ghost zones (§III-A, C).
#include "solvers/core/array.hpp"
#include "solvers/core/types.hpp"

namespace tb::comm {

// An SpMV input: band ghost entries, the owned rows, band ghost entries. The
// ghost zones start at zero and stay zero where no rank owns those rows (the
// global ends), so the one-rank and the distributed SpMV are one kernel.
class GhostedVector {
 public:
  GhostedVector() = default;
  GhostedVector(Backend b, index_t rows, index_t band)
      : data_(b, std::size_t(rows) + 2 * std::size_t(band)), band_(band) {
    data_.set_zero();
  }
  double* ext() { return data_.data(); }
  const double* ext() const { return data_.data(); }
  double* owned() { return data_.data() + band_; }
  const double* owned() const { return data_.data() + band_; }
  index_t band() const { return band_; }
  index_t rows() const { return index_t(data_.size()) - 2 * band_; }

 private:
  Vector data_;
  index_t band_ = 0;
};

// Fills the ghost zones of an extended vector with the entries other ranks
// own, in phases: post(k) starts phase k, complete(k) waits for it. The SpMV
// computes interior rows between the two (overlap). One rank: no phases.
class GhostExchange {
 public:
  virtual ~GhostExchange() = default;
  virtual int phases() const { return 0; }
  virtual void post(int /*phase*/, GhostedVector& /*x*/) {}
  virtual void complete(int /*phase*/, GhostedVector& /*x*/) {}
};

}  // namespace tb::comm
