#include "block_system.hpp"

#include "solvers/core/error.hpp"
#include "solvers/matrix/matrix_market.hpp"

namespace tb::bench {

BsrMatrix read_block_system(const std::string& path) {
  const MatrixMarketMatrix m = read_matrix_market(path);
  if (m.block_size < 1)
    throw Error(path + ": no '% block_size' comment; dump the system with tb-incomp or tb-comp2d --dump-systems");
  return csr_to_bsr(m.matrix, m.block_size);
}

std::string system_name(const std::string& path) {
  const std::string base = path.substr(path.find_last_of('/') + 1);
  return base.substr(0, base.rfind('.'));
}

}  // namespace tb::bench
