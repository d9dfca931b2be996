#include "generator_spec.hpp"

#include <charconv>
#include <cmath>

#include "anisotropic_diffusion.hpp"
#include "generate.hpp"
#include "poisson.hpp"
#include "solvers/core/error.hpp"
#include "tetrahedral_box.hpp"

namespace tb {

GeneratorSpec::GeneratorSpec(std::string_view text) : text_(text) {
  const auto colon = text.find(':');
  name_ = std::string(text.substr(0, colon));
  std::string_view rest = colon == std::string_view::npos ? std::string_view{} : text.substr(colon + 1);
  while (!rest.empty()) {
    const auto comma = rest.find(',');
    const std::string_view item = rest.substr(0, comma);
    rest = comma == std::string_view::npos ? std::string_view{} : rest.substr(comma + 1);
    const auto eq = item.find('=');
    if (eq == std::string_view::npos || eq == 0)
      throw Error(name_ + ": '" + std::string(item) + "' is not key=value (in '" + text_ + "')");
    values_[std::string(item.substr(0, eq))] = std::string(item.substr(eq + 1));
  }
}

long GeneratorSpec::integer(const std::string& key, long fallback, long min) {
  const auto it = values_.find(key);
  if (it == values_.end()) return fallback;
  used_[key] = true;
  const std::string& s = it->second;
  long v = 0;
  const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || ptr != s.data() + s.size() || v < min)
    throw Error(name_ + ": " + key + " needs an integer >= " + std::to_string(min) + ", got '" + s + "'");
  return v;
}

double GeneratorSpec::real(const std::string& key, double fallback) {
  const auto it = values_.find(key);
  if (it == values_.end()) return fallback;
  used_[key] = true;
  const std::string& s = it->second;
  double v = 0;
  const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || ptr != s.data() + s.size() || !std::isfinite(v))
    throw Error(name_ + ": " + key + " needs a finite number, got '" + s + "'");
  return v;
}

void GeneratorSpec::check_all_used(const std::string& allowed) const {
  for (const auto& [key, value] : values_)
    if (!used_.count(key)) throw Error(name_ + ": unknown key '" + key + "' (allowed: " + allowed + ")");
}

namespace {

GeneratedSystem tetbox(GeneratorSpec& s) {
  TetrahedralBoxParams p;
  p.nx = index_t(s.integer("nx", p.nx, 1));
  p.ny = index_t(s.integer("ny", p.ny, 1));
  p.nz = index_t(s.integer("nz", p.nz, 1));
  p.block_size = index_t(s.integer("n", p.block_size, 1));
  p.seed = unsigned(s.integer("seed", p.seed));
  s.check_all_used("nx, ny, nz, n, seed");
  return {generate_tetrahedral_box(p), "tetbox:nx=" + std::to_string(p.nx) + ",ny=" + std::to_string(p.ny) +
                                           ",nz=" + std::to_string(p.nz) + ",n=" + std::to_string(p.block_size) +
                                           ",seed=" + std::to_string(p.seed)};
}

GeneratedSystem anisotropic(GeneratorSpec& s) {
  AnisotropicDiffusionParams p;
  p.nx = index_t(s.integer("nx", p.nx, 3));
  p.ny = index_t(s.integer("ny", p.ny, 3));
  p.epsilon = s.real("eps", p.epsilon);
  p.angle = s.real("angle", p.angle);
  s.check_all_used("nx, ny, eps, angle");
  return {csr_to_bsr(generate_anisotropic_diffusion(p), 1),
          "anisotropic:nx=" + std::to_string(p.nx) + ",ny=" + std::to_string(p.ny) +
              ",eps=" + std::to_string(p.epsilon) + ",angle=" + std::to_string(p.angle)};
}

GeneratedSystem poisson(GeneratorSpec& s) {
  PoissonParams p;
  p.nx = index_t(s.integer("nx", p.nx, 1));
  p.ny = index_t(s.integer("ny", p.ny, 1));
  p.nz = index_t(s.integer("nz", p.nz, 1));
  const double cluster = s.real("cluster", 0.0);
  p.cluster[0] = p.cluster[1] = p.cluster[2] = cluster;
  p.pin = s.integer("pin", 0) != 0;
  p.periodic_i = s.integer("periodic", 0) != 0;
  s.check_all_used("nx, ny, nz, cluster, pin, periodic");
  return {generate_poisson(p), "poisson:nx=" + std::to_string(p.nx) + ",ny=" + std::to_string(p.ny) +
                                   ",nz=" + std::to_string(p.nz) + ",cluster=" + std::to_string(cluster) + ",pin=" +
                                   std::to_string(int(p.pin)) + ",periodic=" + std::to_string(int(p.periodic_i))};
}

}  // namespace

GeneratedSystem generate_system(std::string_view spec) {
  GeneratorSpec s(spec);
  if (s.name() == "stencil7") {
    const Stencil7Params p = parse_stencil7(spec);
    return {generate_stencil7(p), describe(p)};
  }
  if (s.name() == "tetbox") return tetbox(s);
  if (s.name() == "anisotropic") return anisotropic(s);
  if (s.name() == "poisson") return poisson(s);
  throw Error("generator '" + s.name() + "': unknown (allowed: stencil7, tetbox, anisotropic, poisson)");
}

}  // namespace tb
