#pragma once
// dlopen and dlsym for the libraries this project opens on first use instead of
// linking them (cuSPARSE and cuBLAS for the multicolour solver's library
// baseline, PETSc for the petsc solver): each costs every process that links it
// memory and start-up time, used or not. Failures become tb::Error naming who
// asked, the library and the symbol.
#include <string>

// The name of an X-macro's argument, for symbol lookups by name.
#define TB_SYMBOL_NAME(x) TB_SYMBOL_NAME_(x)
#define TB_SYMBOL_NAME_(x) #x

namespace tb::shared_library {

// Opens `path` once more (the library stays open until the process ends).
// owner: the messages' prefix ("petsc"); what: the library as a user knows it,
// said after the loader's reason.
void* open(const char* path, const std::string& owner, const std::string& what);

// The address of `name` in a library open() returned from `path`.
void* symbol(void* library, const char* path, const char* name, const std::string& owner);

}  // namespace tb::shared_library
