# Tri-state dependency switches: AUTO uses a dependency when it is found, ON makes
# its absence a configure error, OFF never looks for it.
function(tb_tristate_option name doc)
  set(${name} AUTO CACHE STRING "${doc} (AUTO, ON or OFF)")
  set_property(CACHE ${name} PROPERTY STRINGS AUTO ON OFF)
  if(NOT ${name} MATCHES "^(AUTO|ON|OFF)$")
    message(FATAL_ERROR "${name}='${${name}}' is not one of AUTO, ON, OFF")
  endif()
endfunction()

tb_tristate_option(WITH_CUDA "Build the CUDA backend")
tb_tristate_option(WITH_MPI "Build distributed solvers with MPI")
tb_tristate_option(WITH_VTK "Write ParaView files through the VTK library")
tb_tristate_option(WITH_METIS "Partition meshes with METIS")
tb_tristate_option(WITH_PYTHON "Build the Python bindings (pybind11, NumPy, SciPy)")
tb_tristate_option(WITH_PETSC "Offer PETSc's KSP and PC (with hypre) as the solver kind petsc")
option(TB_SANITIZE "Build with AddressSanitizer and UndefinedBehaviorSanitizer" OFF)
option(TB_WERROR "Treat warnings in project code as errors" OFF)
option(TB_FUZZ "Build the libFuzzer targets of fuzz/ (clang only; the fuzz preset)" OFF)

# H100 and H200 are sm_90. Never 'native': it fails on machines without a GPU.
set(TB_CUDA_ARCHITECTURES 90 CACHE STRING "CUDA architectures to compile for")

# Report a tri-state result: sets TB_HAVE_<dep> and fails when ON was not satisfied.
function(tb_resolve option found dep)
  if(${option} STREQUAL "ON" AND NOT ${found})
    message(FATAL_ERROR "${option}=ON but ${dep} was not found")
  endif()
  if(${found} AND NOT ${option} STREQUAL "OFF")
    set(TB_HAVE_${dep} ON PARENT_SCOPE)
  else()
    set(TB_HAVE_${dep} OFF PARENT_SCOPE)
  endif()
endfunction()

# Warnings for project targets only; third-party headers come in as SYSTEM.
function(tb_target_warnings target)
  target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic>)
  if(TB_WERROR)
    target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:-Werror>)
  endif()
endfunction()

if(TB_SANITIZE)
  add_compile_options($<$<COMPILE_LANGUAGE:CXX>:-fsanitize=address,undefined>
                      $<$<COMPILE_LANGUAGE:CXX>:-fno-omit-frame-pointer>
                      $<$<COMPILE_LANGUAGE:CXX>:-fno-sanitize-recover=undefined>)
  add_link_options(-fsanitize=address,undefined)
endif()

# Fuzzing (fuzz/, the fuzz preset): every project object is instrumented for
# libFuzzer's coverage and checked by ASan and UBSan; only the fuzz_<target>
# executables link libFuzzer's main().
if(TB_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "TB_FUZZ=ON needs clang (libFuzzer); configure with the fuzz preset")
  endif()
  add_compile_options($<$<COMPILE_LANGUAGE:CXX>:-fsanitize=fuzzer-no-link,address,undefined>
                      $<$<COMPILE_LANGUAGE:CXX>:-fno-omit-frame-pointer>
                      $<$<COMPILE_LANGUAGE:CXX>:-fno-sanitize-recover=undefined>)
  add_link_options(-fsanitize=address,undefined)
endif()
