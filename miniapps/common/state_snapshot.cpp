#include "state_snapshot.hpp"

#include <istream>
#include <ostream>
#include <streambuf>

namespace tb::harness {

namespace {

// An output buffer that appends to a string, keeping its capacity between uses.
class AppendBuffer final : public std::streambuf {
 public:
  explicit AppendBuffer(std::string& s) : s_(s) { s_.clear(); }

 protected:
  std::streamsize xsputn(const char* p, std::streamsize n) override {
    s_.append(p, std::size_t(n));
    return n;
  }
  int_type overflow(int_type c) override {
    if (!traits_type::eq_int_type(c, traits_type::eof())) s_.push_back(traits_type::to_char_type(c));
    return traits_type::not_eof(c);
  }

 private:
  std::string& s_;
};

// An input buffer over a string it does not own.
class ReadBuffer final : public std::streambuf {
 public:
  explicit ReadBuffer(const std::string& s) {
    char* p = const_cast<char*>(s.data());  // read only: get area pointers are non-const by the standard
    setg(p, p, p + s.size());
  }
};

}  // namespace

void StateSnapshot::take(Simulation& sim, long step) {
  step_ = step;
  kept_by_simulation_ = sim.keep_state();
  if (kept_by_simulation_) return;
  AppendBuffer buf(bytes_);
  std::ostream out(&buf);
  sim.save_state(out);
  // Appending grows the string by doubling, so a state of a few large arrays
  // can end in twice its size. Trimmed once, later snapshots of the same size fit.
  if (bytes_.capacity() > bytes_.size() + bytes_.size() / 8) bytes_.shrink_to_fit();
}

bool StateSnapshot::restore(Simulation& sim) const {
  if (step_ < 0) return false;
  if (kept_by_simulation_) {
    sim.restore_kept_state();
    return true;
  }
  ReadBuffer buf(bytes_);
  std::istream in(&buf);
  sim.load_state(in);
  return true;
}

}  // namespace tb::harness
