# Every dependency but a C++ compiler, CMake and Eigen is optional, so the solver
# layer and its tests also build on a bare CUDA machine (Eigen and GoogleTest
# sources carried along; see scripts/device-build.sh).

find_package(Eigen3 3.3 REQUIRED NO_MODULE)

find_package(OpenMP COMPONENTS CXX)
set(TB_HAVE_OPENMP ${OpenMP_CXX_FOUND})

# CUDA: check_language so a machine without nvcc configures cleanly.
set(TB_HAVE_CUDA OFF)
if(NOT WITH_CUDA STREQUAL "OFF")
  include(CheckLanguage)
  if(NOT CMAKE_CUDA_COMPILER AND EXISTS /usr/local/cuda/bin/nvcc)
    set(CMAKE_CUDA_COMPILER /usr/local/cuda/bin/nvcc)
  endif()
  check_language(CUDA)
  if(CMAKE_CUDA_COMPILER)
    set(CMAKE_CUDA_ARCHITECTURES ${TB_CUDA_ARCHITECTURES})
    enable_language(CUDA)
    find_package(CUDAToolkit REQUIRED)
    # CMake 3.25 knows no C++20 flag for nvcc, though nvcc >= 12 accepts -std=c++20.
    if(NOT CMAKE_CUDA20_STANDARD_COMPILE_OPTION AND CMAKE_CUDA_COMPILER_VERSION VERSION_GREATER_EQUAL 12.0)
      set(CMAKE_CUDA20_STANDARD_COMPILE_OPTION "-std=c++20")
      set(CMAKE_CUDA20_EXTENSION_COMPILE_OPTION "-std=c++20")
    endif()
    set(CMAKE_CUDA_STANDARD 20)
    set(CMAKE_CUDA_STANDARD_REQUIRED ON)
    set(TB_HAVE_CUDA ON)
  endif()
  tb_resolve(WITH_CUDA TB_HAVE_CUDA CUDA)
endif()

set(_found OFF)
if(NOT WITH_MPI STREQUAL "OFF")
  find_package(MPI COMPONENTS CXX)
  set(_found ${MPI_CXX_FOUND})
endif()
tb_resolve(WITH_MPI _found MPI)

set(_found OFF)
if(NOT WITH_VTK STREQUAL "OFF")
  find_package(VTK COMPONENTS IOXML IOCore CommonCore CommonDataModel QUIET)
  set(_found ${VTK_FOUND})
endif()
tb_resolve(WITH_VTK _found VTK)

set(_found OFF)
if(NOT WITH_METIS STREQUAL "OFF")
  find_package(METIS)
  set(_found ${METIS_FOUND})
endif()
tb_resolve(WITH_METIS _found METIS)

# Tests and benchmarks: GoogleTest from Debian's package, or from the sources
# carried to a bare machine in TB_GTEST_SOURCE_DIR.
set(TB_GTEST_SOURCE_DIR "" CACHE PATH "GoogleTest source tree to build when no package is installed")
find_package(GTest QUIET)
if(NOT GTest_FOUND AND TB_GTEST_SOURCE_DIR)
  set(INSTALL_GTEST OFF CACHE BOOL "" FORCE)
  add_subdirectory(${TB_GTEST_SOURCE_DIR} ${PROJECT_BINARY_DIR}/_gtest EXCLUDE_FROM_ALL SYSTEM)
  # GoogleTest >= 1.11 defines these aliases itself.
  if(NOT TARGET GTest::gtest_main)
    add_library(GTest::gtest_main ALIAS gtest_main)
    add_library(GTest::gtest ALIAS gtest)
  endif()
  set(GTest_FOUND ON)
endif()
set(TB_HAVE_GTEST ${GTest_FOUND})

find_package(benchmark QUIET)
set(TB_HAVE_BENCHMARK ${benchmark_FOUND})

# PETSc (Debian's petsc-dev, built with hypre) through its pkg-config file. Its
# headers include <mpi.h>, which the pkg-config flags do not name: MPI's
# headers are needed even though PETSc runs on PETSC_COMM_SELF here.
set(_found OFF)
if(NOT WITH_PETSC STREQUAL "OFF")
  find_package(PkgConfig QUIET)
  if(PkgConfig_FOUND)
    pkg_check_modules(PETSC QUIET IMPORTED_TARGET PETSc)
  endif()
  if(PETSC_FOUND AND NOT TARGET MPI::MPI_CXX)
    find_package(MPI COMPONENTS CXX QUIET)
  endif()
  if(PETSC_FOUND AND TARGET MPI::MPI_CXX)
    set(_found ON)
  elseif(PETSC_FOUND)
    message(STATUS "PETSc found but not MPI's headers: PETSc is not used")
  endif()
endif()
tb_resolve(WITH_PETSC _found PETSC)

# Python bindings: Debian's interpreter (/usr/bin/python3, whose dist-packages
# hold python3-scipy and pybind11-dev's files), not one first on PATH; found as
# Python3 first so that pybind11 uses the same one.
set(_found OFF)
if(NOT WITH_PYTHON STREQUAL "OFF")
  if(NOT DEFINED Python3_EXECUTABLE AND EXISTS /usr/bin/python3)
    set(Python3_EXECUTABLE /usr/bin/python3)
  endif()
  find_package(Python3 COMPONENTS Interpreter Development.Module QUIET)
  if(Python3_FOUND)
    find_package(pybind11 CONFIG QUIET)
    execute_process(COMMAND ${Python3_EXECUTABLE} -c "import numpy, scipy" RESULT_VARIABLE _no_scipy
                    OUTPUT_QUIET ERROR_QUIET)
    if(pybind11_FOUND AND _no_scipy EQUAL 0)
      set(_found ON)
    endif()
  endif()
endif()
tb_resolve(WITH_PYTHON _found PYTHON)
