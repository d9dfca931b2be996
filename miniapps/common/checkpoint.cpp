#include "checkpoint.hpp"

#include <fstream>
#include <sstream>

#include "solvers/core/atomic_file.hpp"
#include "solvers/core/error.hpp"

namespace tb::harness {

namespace {

// Version 2 adds the harness state (autopilots) after the totals; version 1 is still read.
constexpr const char* magic = "tb-checkpoint 2";
constexpr const char* magic_v1 = "tb-checkpoint 1";

// Length-prefixed strings and raw doubles: exact round trip of every bit.
void put(std::ostream& o, const std::string& s) {
  const std::uint64_t n = s.size();
  o.write(reinterpret_cast<const char*>(&n), sizeof n);
  o.write(s.data(), std::streamsize(n));
}
template <class T>
void put(std::ostream& o, T v) {
  o.write(reinterpret_cast<const char*>(&v), sizeof v);
}
template <class T>
T get(std::istream& in) {
  T v{};
  in.read(reinterpret_cast<char*>(&v), sizeof v);
  return v;
}
std::string get_string(std::istream& in) {
  const auto n = get<std::uint64_t>(in);
  if (!in || n > (1ull << 40)) return {};
  std::string s(n, '\0');
  in.read(s.data(), std::streamsize(n));
  return s;
}

}  // namespace

void write_checkpoint(const std::filesystem::path& dir, const CheckpointHeader& h, const std::string& state) {
  std::ostringstream o;
  put(o, std::string(magic));
  put(o, h.app);
  put(o, h.step);
  put(o, h.wall_seconds);
  put(o, std::uint64_t(h.totals.size()));
  for (const auto& [name, t] : h.totals) {
    put(o, name);
    put(o, t.solves), put(o, t.iterations), put(o, t.failures), put(o, t.setup_seconds), put(o, t.solve_seconds);
  }
  put(o, h.harness_state);
  put(o, state);
  put(o, std::string("end"));
  write_file_atomically((dir / "checkpoint.bin").string(), o.str());
}

std::string read_checkpoint(const std::filesystem::path& dir, const std::string& app, CheckpointHeader& h) {
  const std::string path = (dir / "checkpoint.bin").string();
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(path + ": no checkpoint to restart from (run with run.checkpoint_every > 0)");
  auto damaged = [&](const std::string& why) { return Error(path + ": not a usable checkpoint: " + why); };
  const std::string version = get_string(in);
  if (version != magic && version != magic_v1) throw damaged("wrong header");
  h.app = get_string(in);
  if (h.app != app) throw damaged("written by " + h.app + ", not " + app);
  h.step = get<long>(in);
  h.wall_seconds = get<double>(in);
  const auto n = get<std::uint64_t>(in);
  if (!in || n > 10000) throw damaged("truncated totals");
  for (std::uint64_t i = 0; i < n; ++i) {
    const std::string name = get_string(in);
    SolverTotals t;
    t.solves = get<long>(in), t.iterations = get<long>(in), t.failures = get<long>(in);
    t.setup_seconds = get<double>(in), t.solve_seconds = get<double>(in);
    h.totals[name] = t;
  }
  if (version == magic) h.harness_state = get_string(in);
  std::string state = get_string(in);
  if (!in || get_string(in) != "end") throw damaged("truncated");
  return state;
}

}  // namespace tb::harness
