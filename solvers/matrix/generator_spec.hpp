#pragma once
// Generated systems by name, "name:key=value,...", as tb-solve --generate and
// the tests take them:
//   stencil7:nx=,ny=,nz=,n=,seed=,...   coupled convection-diffusion-reaction blocks (generate.hpp)
//   tetbox:nx=,ny=,nz=,n=,seed=          tetrahedral-mesh block pattern, seed 002 (tetrahedral_box.hpp)
//   anisotropic:nx=,ny=,eps=,angle=      2D anisotropic diffusion, seed 003's ANI (anisotropic_diffusion.hpp)
//   poisson:nx=,ny=,nz=,cluster=,pin=,periodic=  the finite-volume pressure Poisson matrix (poisson.hpp)
// An unknown name, key or a malformed value is a tb::Error that lists what is allowed.
#include <map>
#include <string>
#include <string_view>

#include "bsr.hpp"

namespace tb {

class GeneratorSpec {
 public:
  explicit GeneratorSpec(std::string_view text);
  const std::string& name() const { return name_; }
  // The value of a key, or the fallback when the spec does not name it.
  long integer(const std::string& key, long fallback, long min = 0);
  double real(const std::string& key, double fallback);
  // Throws naming a key the generator did not read, with the allowed keys.
  void check_all_used(const std::string& allowed) const;

 private:
  std::string text_, name_;
  std::map<std::string, std::string> values_;
  std::map<std::string, bool> used_;
};

struct GeneratedSystem {
  BsrMatrix a;
  std::string description;  // the spec with every default filled in
};

GeneratedSystem generate_system(std::string_view spec);

}  // namespace tb
