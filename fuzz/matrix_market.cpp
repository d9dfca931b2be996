// Fuzz target: the MatrixMarket reader (matrices and vectors). A matrix it
// accepts must be a valid CSR matrix and must read back bit for bit after
// being written.
#include "solvers/matrix/matrix_market.hpp"

#include <cstdlib>

#include "fuzz_input.hpp"
#include "solvers/core/error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string path = tb::fuzz::input_file(data, size, ".mtx");
  try {
    const tb::MatrixMarketMatrix m = tb::read_matrix_market(path);
    m.matrix.validate();  // a tb::Error here would be caught below, so check by hand too
    const std::string copy = path + ".copy.mtx";
    tb::write_matrix_market(copy, m.matrix);
    const tb::MatrixMarketMatrix back = tb::read_matrix_market(copy);
    if (back.matrix.rows != m.matrix.rows || back.matrix.cols != m.matrix.cols ||
        back.matrix.row_ptr != m.matrix.row_ptr || back.matrix.col_idx != m.matrix.col_idx ||
        back.matrix.values != m.matrix.values)
      std::abort();  // the writer and the reader disagree
  } catch (const tb::Error&) {
  }
  try {
    (void)tb::read_matrix_market_vector(path);
  } catch (const tb::Error&) {
  }
  return 0;
}
