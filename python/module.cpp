// tb_solvers._core: the solver layer for Python. Arrays cross as NumPy arrays
// (CSR parts, vectors); the SciPy side lives in tb_solvers/__init__.py, so this
// file needs pybind11 and NumPy's buffer protocol only.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <string>
#include <vector>

#include "solvers/core/error.hpp"
#include "solvers/factory/registry.hpp"
#include "solvers/matrix/bsr.hpp"
#include "solvers/matrix/generator_spec.hpp"
#include "solvers/matrix/matrix_market.hpp"
#include "solvers/petsc/petsc_solver.hpp"

namespace py = pybind11;

namespace {

using IndexArray = py::array_t<tb::index_t, py::array::c_style | py::array::forcecast>;
using RealArray = py::array_t<double, py::array::c_style | py::array::forcecast>;

template <class T>
std::vector<T> to_vector(const py::array_t<T, py::array::c_style | py::array::forcecast>& a) {
  return std::vector<T>(a.data(), a.data() + a.size());
}

template <class T>
py::array_t<T> to_array(const std::vector<T>& v) {
  return py::array_t<T>(py::ssize_t(v.size()), v.data());
}

tb::CsrMatrix csr_from(IndexArray indptr, IndexArray indices, RealArray data, tb::index_t rows, tb::index_t cols) {
  tb::CsrMatrix m;
  m.rows = rows;
  m.cols = cols;
  m.row_ptr = to_vector(indptr);
  m.col_idx = to_vector(indices);
  m.values = to_vector(data);
  if (m.row_ptr.size() != std::size_t(rows) + 1)
    throw tb::Error("indptr has " + std::to_string(m.row_ptr.size()) + " entries for " + std::to_string(rows) +
                    " rows; expected rows + 1");
  if (m.col_idx.size() != m.values.size() || m.col_idx.size() != std::size_t(m.row_ptr.back()))
    throw tb::Error("indices and data must both have indptr[-1] entries");
  return m;
}

py::tuple csr_parts(const tb::CsrMatrix& m) {
  return py::make_tuple(to_array(m.row_ptr), to_array(m.col_idx), to_array(m.values), m.rows, m.cols);
}

py::dict stats_dict(const tb::SolveStats& st) {
  py::dict d;
  d["solver"] = st.solver;
  d["reason"] = std::string(tb::to_string(st.reason));
  d["converged"] = st.converged();
  d["iterations"] = st.iterations;
  d["initial_residual"] = st.initial_residual;
  d["final_residual"] = st.final_residual;
  d["residual_history"] = st.residual_history;
  d["setup_seconds"] = st.setup_seconds;
  d["solve_seconds"] = st.solve_seconds;
  d["device_launches"] = st.device_launches;
  d["preconditioner_applications"] = st.preconditioner_applications;
  d["preconditioner_launches"] = st.preconditioner_launches;
  d["detail"] = st.detail;
  return d;
}

// The CSR matrix regrouped into blocks, set up, solved from x0; the GIL is
// released around set-up and solve, which may run for a while on many threads.
py::tuple solve_csr(IndexArray indptr, IndexArray indices, RealArray data, tb::index_t rows, tb::index_t cols,
                    RealArray b, RealArray x0, const std::string& spec, tb::index_t block_size) {
  auto solver = tb::make_solver(spec);
  const tb::BsrMatrix a = tb::csr_to_bsr(csr_from(indptr, indices, data, rows, cols), block_size);
  const std::vector<double> bv = to_vector(b);
  std::vector<double> x = to_vector(x0);
  if (bv.size() != std::size_t(rows) || x.size() != std::size_t(rows))
    throw tb::Error("b and x0 must have " + std::to_string(rows) + " entries (the matrix's rows); got " +
                    std::to_string(bv.size()) + " and " + std::to_string(x.size()));
  tb::SolveStats st;
  {
    py::gil_scoped_release release;
    solver->setup(a);
    st = solver->solve(bv, x);
  }
  return py::make_tuple(to_array(x), stats_dict(st));
}

py::tuple read_matrix(const std::string& path) {
  const tb::MatrixMarketMatrix m = tb::read_matrix_market(path);
  return py::make_tuple(csr_parts(m.matrix), m.block_size);
}

void write_matrix(const std::string& path, IndexArray indptr, IndexArray indices, RealArray data, tb::index_t rows,
                  tb::index_t cols, tb::index_t block_size, const std::string& comment) {
  const tb::CsrMatrix m = csr_from(indptr, indices, data, rows, cols);
  if (block_size > 1)
    tb::write_matrix_market(path, tb::csr_to_bsr(m, block_size), comment);
  else
    tb::write_matrix_market(path, m, comment);
}

py::tuple generate(const std::string& spec) {
  tb::GeneratedSystem g = tb::generate_system(spec);
  return py::make_tuple(csr_parts(tb::bsr_to_csr(g.a)), g.a.block_size, g.description);
}

}  // namespace

PYBIND11_MODULE(_core, m) {
  m.doc() = "The CFD solver testbed's linear-solver layer (use the tb_solvers package, not this module)";
  // tb::Error (bad specification, bad file, refused input) arrives as ValueError.
  py::register_exception<tb::Error>(m, "Error", PyExc_ValueError);
  m.def("solve_csr", &solve_csr);
  m.def("read_matrix", &read_matrix);
  m.def("write_matrix", &write_matrix);
  m.def("read_vector", [](const std::string& path) { return to_array(tb::read_matrix_market_vector(path)); });
  m.def("write_vector", [](const std::string& path, RealArray v, const std::string& comment) {
    tb::write_matrix_market_vector(path, to_vector(v), comment);
  });
  m.def("generate", &generate);
  m.def("solvers_help", [] { return tb::Registry::builtin().help(); });
  m.attr("has_petsc") = tb::petsc::available();
}
