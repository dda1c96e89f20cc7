# The Windows (x86-64) cross build, run by the main Makefile:
#   make windows        build/win64/atrc.exe, mkpk3.exe, mkxanim.exe, unit-tests.exe
#   make check-windows  the test suite under Wine (win/check.sh)
#   make dist-windows   build/atrc-VERSION-win64.zip (with LICENSE.txt and
#                       THIRD-PARTY-NOTICES.txt: win/notices.sh)
# mingw-w64 with winpthreads (the -posix compiler: src/compile/frontend.c's threads
# build unchanged), linked statically: no DLL to ship.  libzip and Check are
# built from Debian's source packages inside the build tree
# (scripts/win-deps.sh); zlib is Debian's libz-mingw-w64-dev.  The lexers,
# parsers and builtin tables are the host build's ($(HOST_B)): re2c, lemon
# and the generator run on the host, their output is the same C.

HOST_B   ?= build
W        := build/win64
DEPS     := $(W)/deps/prefix
WCC      := x86_64-w64-mingw32-gcc-posix
WINDRES  := x86_64-w64-mingw32-windres
VERSION  := $(shell sed -n 's/^\#define ATRC_VERSION "\(.*\)"/\1/p' include/atrc.h)

# __USE_MINGW_ANSI_STDIO: C99 printf (%zu, %lld) instead of msvcrt's.  The
# format attributes then check against msvcrt's dialect and flag every %zu,
# so -Wformat is left to the native build (the same sources, checked there).
WCPPFLAGS := -Iinclude -Isrc -I$(HOST_B) -I$(DEPS)/include -D__USE_MINGW_ANSI_STDIO=1 \
             -D_POSIX_C_SOURCE=200809L
WCFLAGS   := -std=c99 -O2 -pthread
WWARN     := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wvla -Wno-format
WGEN_WARN := -Wall -Wextra -Werror -Wno-format -Wno-unused-parameter -Wno-unused-variable \
             -Wno-unused-but-set-variable -Wno-implicit-fallthrough
# Every program is static (winpthreads, the C runtime's helpers, libzip,
# zlib, Windows' crypto API for libzip's encryption).  The oldest Windows
# they run on is 7 (6.1: GetActiveProcessorCount, src/os/os_win.c's
# _WIN32_WINNT), written into the executable's header so that an older one
# refuses to start it with a clear message.
WLDFLAGS  := -static -pthread -L$(DEPS)/lib -Wl,--major-subsystem-version,6,--minor-subsystem-version,1 \
             -Wl,--major-os-version,6,--minor-os-version,1
WLIBS     := -lzip -lz -lbcrypt -ladvapi32 -lpthread

include sources.mk
CLI_OBJ  := $(patsubst src/%.c,$(W)/obj/%.o,$(CLI_SRC))
# GEN_C: the host's generated C files (passed by the main Makefile).
GEN_SRC  := $(filter $(HOST_B)/%.c,$(GEN_C))
LIB_OBJ  := $(patsubst src/%.c,$(W)/obj/%.o,$(LIB_SRC)) $(patsubst $(HOST_B)/%.c,$(W)/obj/gen/%.o,$(GEN_SRC))
TEST_SRC := $(sort $(wildcard tests/*.c))
TEST_OBJ := $(patsubst tests/%.c,$(W)/obj/tests/%.o,$(TEST_SRC))
DEPS_STAMP := $(W)/deps/prefix/.built

.PHONY: windows
windows: $(W)/atrc.exe $(W)/mkpk3.exe $(W)/mkxanim.exe $(W)/unit-tests.exe

$(DEPS_STAMP): scripts/win-deps.sh scripts/win64-toolchain.cmake
	@scripts/win-deps.sh $(W)/deps
	@touch $@

$(W)/obj $(W)/obj/gen $(W)/obj/tests:
	@mkdir -p $@

$(W)/obj/%.o: src/%.c win/windows.mk sources.mk $(DEPS_STAMP) | $(W)/obj
	@printf '  %-7s %s\n' WCC $@
	@mkdir -p $(@D)
	@$(WCC) $(WCPPFLAGS) $(WCFLAGS) $(WWARN) -MMD -MP -c -o $@ $<

$(W)/obj/gen/%.o: $(HOST_B)/%.c win/windows.mk $(DEPS_STAMP) | $(W)/obj/gen
	@printf '  %-7s %s\n' WCC $@
	@$(WCC) $(WCPPFLAGS) $(if $(filter %parser.c,$<),-DNDEBUG) $(WCFLAGS) $(WGEN_WARN) -MMD -MP -c -o $@ $<

# The unit tests link Check; Check has no fork() here (CK_FORK=no).
$(W)/obj/tests/%.o: tests/%.c win/windows.mk $(DEPS_STAMP) | $(W)/obj/tests
	@printf '  %-7s %s\n' WCC $@
	@$(WCC) $(WCPPFLAGS) -DATRC_TEST_DIR='"tests"' $(WCFLAGS) $(WWARN) -Wno-missing-prototypes -MMD -MP -c -o $@ $<

# The version resource's numbers: ATRC_VERSION "1.2.3" as 1,2,3,0.
$(W)/version.h: include/atrc.h win/windows.mk | $(W)/obj
	@printf '#define ATRC_RC_VERSION %s,0\n#define ATRC_RC_VERSION_STR "%s"\n' \
	    "$$(echo '$(VERSION)' | tr . ,)" '$(VERSION)' >$@

$(W)/obj/atrc-res.o: win/atrc.rc win/atrc.manifest $(W)/version.h | $(W)/obj
	@printf '  %-7s %s\n' WINDRES $@
	@$(WINDRES) -I win -I $(W) -O coff -o $@ win/atrc.rc

$(W)/libatrc.a: $(LIB_OBJ)
	@printf '  %-7s %s\n' AR $@
	@rm -f $@ && x86_64-w64-mingw32-ar rcs $@ $^

# atrc.exe ships: stripped (-s), and the linker's list of every file it
# read kept beside it (atrc.exe.trace), from which the release's third-party
# notices are made (win/notices.sh).
$(W)/atrc.exe: $(CLI_OBJ) $(W)/obj/atrc-res.o $(W)/libatrc.a
	@printf '  %-7s %s\n' WLINK $@
	@$(WCC) $(WCFLAGS) $(WLDFLAGS) -s -o $@ $^ $(WLIBS) -Wl,--trace >$@.trace.tmp && mv $@.trace.tmp $@.trace

$(W)/%.exe: tools/%.c $(W)/obj/atrc-res.o $(W)/libatrc.a $(DEPS_STAMP)
	@printf '  %-7s %s\n' WLINK $@
	@$(WCC) $(WCPPFLAGS) $(WCFLAGS) $(WWARN) $(WLDFLAGS) -o $@ $< $(W)/obj/atrc-res.o $(W)/libatrc.a $(WLIBS)

$(W)/unit-tests.exe: $(TEST_OBJ) $(filter-out $(W)/obj/cli/main.o,$(CLI_OBJ)) $(W)/obj/atrc-res.o $(W)/libatrc.a
	@printf '  %-7s %s\n' WLINK $@
	@$(WCC) $(WCFLAGS) $(WLDFLAGS) -o $@ $^ -lcheck $(WLIBS)

-include $(wildcard $(W)/obj/*.d $(W)/obj/*/*.d)

# ---- the release: atrc.exe, the README, the man page as HTML, the
# licence and the notices of the third-party code linked in ----
DIST     := build/atrc-$(VERSION)-win64.zip
DIST_DIR := $(W)/dist/atrc-$(VERSION)-win64

.PHONY: dist-windows
dist-windows: $(DIST)

$(W)/THIRD-PARTY-NOTICES.txt: $(W)/atrc.exe win/notices.sh
	@printf '  %-7s %s\n' NOTICES $@
	@sh win/notices.sh $(W)/atrc.exe.trace $(W)/deps/src $@.tmp && mv $@.tmp $@

$(DIST): $(W)/atrc.exe $(W)/THIRD-PARTY-NOTICES.txt README.md doc/atrc.1 LICENSE
	@printf '  %-7s %s\n' ZIP $@
	@rm -rf $(W)/dist && mkdir -p $(DIST_DIR)
	@cp $(W)/atrc.exe $(DIST_DIR)/atrc.exe
	@cp README.md $(DIST_DIR)/README.md
	@sed 's/$$/\r/' LICENSE >$(DIST_DIR)/LICENSE.txt
	@sed 's/$$/\r/' $(W)/THIRD-PARTY-NOTICES.txt >$(DIST_DIR)/THIRD-PARTY-NOTICES.txt
	@mandoc -T html -O style=none doc/atrc.1 >$(DIST_DIR)/atrc.html
	@mandoc -T ascii doc/atrc.1 | sed 's/.\x08//g' >$(DIST_DIR)/atrc.txt
	@rm -f $@ && cd $(W)/dist && zip -q -X -r $(abspath $@) atrc-$(VERSION)-win64
