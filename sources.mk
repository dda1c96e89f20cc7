# The one list of atrc's sources, read by every build: the native Makefile,
# the Windows cross build (win/windows.mk), WebAssembly (wasm.mk) and the
# fuzzing harnesses (tests/fuzz/fuzz.mk).  src/ holds a folder per stage,
# lowest first (README, "Design"); src/api.c sits on top of them.
SRC_STAGES := os base game script tree files check compile output editor

# The library: every stage's files and the API's entry points.
LIB_SRC := $(foreach d,$(SRC_STAGES),$(sort $(wildcard src/$(d)/*.c))) src/api.c
# The executable's own sources (main.c, argument files, the language
# server): never in the library.
CLI_SRC := $(sort $(wildcard src/cli/*.c))
