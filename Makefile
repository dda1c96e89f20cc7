# atrc — GNU Make build.  `make` builds build/atrc; `make demo`, `make check`,
# `make bench`, `make corpus-check CORPUS=DIR`, `make fuzz`, `make memcheck`.
# `make V=1` shows the commands; `make check SANITIZE=1` builds and tests with
# AddressSanitizer and UndefinedBehaviorSanitizer into build/san/;
# `make check SANITIZE=thread` with ThreadSanitizer into build/tsan/.
# `make install` / `make uninstall` honour PREFIX (default /usr/local) and DESTDIR.

CC      ?= cc
RE2C    ?= re2c
LEMON   ?= lemon
LEMPAR  ?= /usr/share/lemon/lempar.c
PKG_CONFIG ?= pkg-config

ifeq ($(SANITIZE),1)
B        ?= build/san
SANFLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
export ASAN_OPTIONS := detect_leaks=1:abort_on_error=0:exitcode=99
export UBSAN_OPTIONS := print_stacktrace=1:halt_on_error=1
PARSER_DEFS :=
else ifeq ($(SANITIZE),thread)
B        ?= build/tsan
SANFLAGS := -fsanitize=thread -fno-omit-frame-pointer
export TSAN_OPTIONS := halt_on_error=1:exitcode=99
PARSER_DEFS :=
else
B        ?= build
SANFLAGS :=
# The generated parser's own asserts are for debugging Lemon: off in normal builds.
PARSER_DEFS := -DNDEBUG
endif

# Installation (GNU conventions).
PREFIX     ?= /usr/local
BINDIR     ?= $(PREFIX)/bin
LIBDIR     ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
MANDIR     ?= $(PREFIX)/share/man
DOCDIR     ?= $(PREFIX)/share/doc/atrc
VERSION    := $(shell sed -n 's/^\#define ATRC_VERSION "\(.*\)"/\1/p' include/atrc.h)
SOMAJOR    := $(firstword $(subst ., ,$(VERSION)))
SONAME     := libatrc.so.$(SOMAJOR)

OPT      ?= -O2 -g
WARN     := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wvla
CPPFLAGS += -Iinclude -Isrc -I$(B) -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE
ALL_CFLAGS = -std=c99 -pthread $(OPT) $(SANFLAGS) $(CFLAGS)
# Generated parser/lexer code is compiled without the strictest prototypes checks.
GEN_WARN := -Wall -Wextra -Werror -Wno-unused-parameter -Wno-unused-variable -Wno-unused-but-set-variable -Wno-implicit-fallthrough
LDLIBS   += -lm -pthread
# libzip reads .pk3/.iwd archives (deferred: known once `deps` has installed it).
ZIP_CFLAGS = $(shell $(PKG_CONFIG) --cflags libzip 2>/dev/null)
ZIP_LIBS   = $(shell $(PKG_CONFIG) --libs libzip 2>/dev/null)
CPPFLAGS += $(ZIP_CFLAGS)
LDLIBS   += $(ZIP_LIBS)

ifeq ($(V),1)
Q :=
say = @true
else
Q := @
say = @printf '  %-7s %s\n' $(1) $(2)
endif

include sources.mk
CLI_OBJ  := $(patsubst src/%.c,$(B)/obj/%.o,$(CLI_SRC))
RE_SRC   := $(sort $(wildcard grammar/*.re))
Y_SRC    := $(sort $(wildcard grammar/*.y))
BUILTIN_LISTS := $(sort $(wildcard data/builtins/*.txt)) $(sort $(wildcard data/builtins/extensions/*.txt))
GEN_C    := $(patsubst grammar/%.re,$(B)/%.c,$(RE_SRC)) $(patsubst grammar/%.y,$(B)/%.c,$(Y_SRC)) \
            $(B)/builtin_tables.c
GEN_H    := $(patsubst grammar/%.y,$(B)/%.h,$(Y_SRC))
LIB_OBJ  := $(patsubst src/%.c,$(B)/obj/%.o,$(LIB_SRC)) $(patsubst $(B)/%.c,$(B)/obj/%.o,$(GEN_C))
TEST_SRC := $(sort $(wildcard tests/*.c))
TEST_OBJ := $(patsubst tests/%.c,$(B)/obj/tests/%.o,$(TEST_SRC))
TOOLS    := $(patsubst tools/%.c,$(B)/%,$(sort $(wildcard tools/*.c)))

.SECONDARY: $(GEN_C) $(GEN_H)
.PHONY: all deps demo check layers calls unit golden hostile parallel pictures install-check manlint readme-check lsp-check install uninstall bench mutation-report \
        corpus-check model-check fuzz memcheck clean diff-portable windows check-windows dist-windows dist dist-check
.DEFAULT_GOAL := all

all: $(B)/atrc $(B)/libatrc.so.$(VERSION) $(TOOLS)

deps:
	@scripts/ensure-deps.sh base

$(B)/obj $(B)/obj/tests:
	@mkdir -p $@

# ---- generated scanners and parsers (never committed) ----
$(B)/%.c: grammar/%.re | deps $(B)/obj
	$(call say,RE2C,$@)
	$(Q)$(RE2C) -W -Werror -i --no-generation-date --no-version -o $@ $<

# Lemon writes its outputs even when the grammar has conflicts, and exits 1:
# delete them so that a conflicted grammar never builds.
$(B)/%.c $(B)/%.h: grammar/%.y scripts/check-lempar.sh | deps $(B)/obj
	$(call say,LEMON,$@)
	$(Q)scripts/check-lempar.sh $(LEMPAR)
	$(Q)$(LEMON) -q -l -T$(LEMPAR) -d$(B) $< || { rm -f $(B)/$*.c $(B)/$*.h $(B)/$*.out; \
	    echo "atrc: grammar $< has conflicts (run: lemon -d/tmp $< and read /tmp/$*.out)" >&2; exit 1; }
	$(Q)touch $(B)/$*.h # lemon leaves an unchanged header untouched: mark both outputs new

# Library objects are position-independent: the same objects make
# libatrc.a and libatrc.so.
$(patsubst grammar/%.y,$(B)/obj/%.o,$(Y_SRC)): GEN_DEFS := $(PARSER_DEFS)
# Objects built with other flags are stale.
$(LIB_OBJ) $(CLI_OBJ) $(TEST_OBJ): Makefile sources.mk

# The games' builtin names (data/builtins/*.txt) and the engine extensions'
# (data/builtins/extensions/*.txt) as constant hash tables.
$(B)/gen-builtins: scripts/gen_builtins.c src/game/builtins.c src/game/builtins.h src/base/text.c src/base/text.h | $(B)/obj
	$(call say,CC,$@)
	$(Q)$(CC) $(CPPFLAGS) $(ALL_CFLAGS) $(WARN) -o $@ scripts/gen_builtins.c src/game/builtins.c src/base/text.c

$(B)/builtin_tables.c: $(B)/gen-builtins $(BUILTIN_LISTS)
	$(call say,GEN,$@)
	$(Q)$(B)/gen-builtins $@ $(BUILTIN_LISTS)

# One set of objects serves the static library, the shared one and atrc
# itself: position-independent, but without semantic interposition (the
# shared library exports only its API: src/libatrc.map), so calls inside the
# library inline as in a non-PIC build.
PIC := -fPIC -fno-semantic-interposition

$(B)/obj/%.o: $(B)/%.c | $(B)/obj $(GEN_H)
	$(call say,CC,$@)
	$(Q)$(CC) $(CPPFLAGS) $(GEN_DEFS) $(ALL_CFLAGS) $(PIC) $(GEN_WARN) -MMD -MP -c -o $@ $<

$(B)/obj/%.o: src/%.c | $(B)/obj $(GEN_H)
	$(call say,CC,$@)
	@mkdir -p $(@D)
	$(Q)$(CC) $(CPPFLAGS) $(ALL_CFLAGS) $(PIC) $(WARN) -MMD -MP -c -o $@ $<

$(B)/libatrc.a: $(LIB_OBJ)
	$(call say,AR,$@)
	$(Q)rm -f $@ && ar rcs $@ $^

# Only the API of include/atrc.h (atrc_*) is exported (src/libatrc.map).
$(B)/libatrc.so.$(VERSION): $(LIB_OBJ) src/libatrc.map
	$(call say,LINK,$@)
	$(Q)$(CC) $(ALL_CFLAGS) $(LDFLAGS) -shared -Wl,-soname,$(SONAME) -Wl,--version-script=src/libatrc.map \
	    -o $@ $(LIB_OBJ) $(LDLIBS)

$(B)/atrc: $(CLI_OBJ) $(B)/libatrc.a
	$(call say,LINK,$@)
	$(Q)$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(B)/%: tools/%.c $(B)/libatrc.a | $(B)/obj
	$(call say,LINK,$@)
	$(Q)$(CC) $(CPPFLAGS) $(ALL_CFLAGS) $(WARN) $(LDFLAGS) -o $@ $< $(B)/libatrc.a $(LDLIBS)

# ---- unit tests (Check): one make_<area>_suite() per tests/test_<area>.c ----
CHECK_CFLAGS = $(shell $(PKG_CONFIG) --cflags check 2>/dev/null)
CHECK_LIBS   = $(shell $(PKG_CONFIG) --libs check 2>/dev/null)

# Rewritten only when the list of suites changes: editing a test recompiles
# that test, not the runner.
$(B)/suites.inc: $(TEST_SRC) | $(B)/obj
	$(Q)grep -ho 'Suite \*make_[a-z0-9_]*_suite' $(TEST_SRC) /dev/null \
	    | sed 's/Suite \*make_\(.*\)_suite/SUITE(\1)/' > $@.tmp && \
	    if cmp -s $@.tmp $@; then rm -f $@.tmp; else mv $@.tmp $@; fi

$(B)/obj/tests/check_main.o: $(B)/suites.inc

$(B)/obj/tests/%.o: tests/%.c | $(B)/obj/tests $(GEN_H) deps
	$(call say,CC,$@)
	$(Q)$(CC) $(CPPFLAGS) $(CHECK_CFLAGS) -DATRC_TEST_DIR='"tests"' $(ALL_CFLAGS) $(WARN) -Wno-missing-prototypes -MMD -MP -c -o $@ $<

# The language server's sources (all of the executable's but main.c) are
# linked in for the suites that drive it (the session fuzzer's seed replay).
CLI_TESTED := $(filter-out $(B)/obj/cli/main.o,$(CLI_OBJ))
$(B)/unit-tests: $(TEST_OBJ) $(CLI_TESTED) $(B)/libatrc.a
	$(call say,LINK,$@)
	$(Q)$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $(TEST_OBJ) $(CLI_TESTED) $(B)/libatrc.a $(CHECK_LIBS) $(LDLIBS)

# What a suite of make check leaves out, and why: one "what: why" line a
# case in $(SKIPS)/SUITE (ATRC_SKIP_LOG; written afresh by each run of the
# suite), listed at the end of make check (scripts/check-summary.sh).
SKIPS := $(abspath $(B))/skips
skip_log = rm -f $(SKIPS)/$(1) && mkdir -p $(SKIPS) && ATRC_SKIP_LOG=$(SKIPS)/$(1)

unit: $(B)/unit-tests all
	@echo "== unit tests (Check)"
	$(Q)$(call skip_log,unit) $(B)/unit-tests

golden: all
	@echo "== golden tests"
	$(Q)ATRC=$(abspath $(B)/atrc) MKXANIM=$(abspath $(B)/mkxanim) sh tests/run_golden.sh tests/golden
	$(Q)for j in 1 4 16; do JOBS=$$j ATRC=$(abspath $(B)/atrc) MKXANIM=$(abspath $(B)/mkxanim) \
	    sh tests/run_golden.sh tests/golden || exit 1; done

hostile: all
	@echo "== hostile inputs"
	$(Q)$(call skip_log,hostile) ATRC=$(abspath $(B)/atrc) B=$(abspath $(B)) SANITIZE=$(SANITIZE) sh tests/hostile/run.sh

# `atrc diff` across folders, install locations and `\` paths: no difference.
diff-portable: all $(B)/mkpk3
	@echo "== diff across checkouts"
	$(Q)ATRC=$(abspath $(B)/atrc) MKPK3=$(abspath $(B)/mkpk3) sh tests/diff/portable.sh

# Every dot output renders with Graphviz (installed by scripts/ensure-deps.sh graphviz).
pictures: all $(B)/samples/.stamp
	@scripts/ensure-deps.sh graphviz
	@echo "== pictures (dot -Tsvg)"
	$(Q)$(call skip_log,pictures) ATRC=$(abspath $(B)/atrc) SAMPLE_GAME=$(SAMPLE_GAME) sh tests/render_dot.sh

# Installs into a temporary DESTDIR and builds a program against the copy
# through pkg-config (tests/install/run.sh), then uninstalls it.
INSTALL_TEST := $(abspath $(B))/install-test
install-check: all
	@echo "== install (DESTDIR=$(INSTALL_TEST) PREFIX=/opt/atrc) and pkg-config"
	$(Q)rm -rf $(INSTALL_TEST) && $(MAKE) --no-print-directory -s install DESTDIR=$(INSTALL_TEST) PREFIX=/opt/atrc
	$(Q)CC="$(CC)" CFLAGS="$(SANFLAGS)" PKG_CONFIG="$(PKG_CONFIG)" sh tests/install/run.sh $(INSTALL_TEST) /opt/atrc
	$(Q)$(MAKE) --no-print-directory -s uninstall DESTDIR=$(INSTALL_TEST) PREFIX=/opt/atrc
	$(Q)left=$$(find $(INSTALL_TEST) ! -type d); test -z "$$left" || { echo "uninstall left: $$left" >&2; exit 1; }
	$(Q)rm -rf $(INSTALL_TEST)

# The README's worked packing example, run as printed (tests/readme/run.sh).
readme-check: $(B)/atrc
	@echo "== the README's examples as printed"
	$(Q)ATRC=$(abspath $(B)/atrc) sh tests/readme/run.sh README.md "The packing, worked through"

# The man page: mandoc's linter, and every option of --help documented.
manlint: $(B)/atrc
	@echo "== man page"
	$(Q)ATRC=$(abspath $(B)/atrc) sh tests/man/check.sh doc/atrc.1

# The same runs at -j 1, 2, 4 and 16 print the same bytes (real scripts too, when present).
PAR_CORPUS := $(abspath $(wildcard ../shared/corpus/cod1-game))
parallel: all
	@echo "== thread counts"
	$(Q)$(call skip_log,parallel) ATRC=$(abspath $(B)/atrc) CORPUS=$(PAR_CORPUS) MEMCHECK=$(if $(SANITIZE),,1) sh tests/parallel/run.sh

# `atrc lsp` driven by a protocol-level client, by headless Neovim and by
# Emacs + eglot in batch mode as the README sets them up
# (scripts/ensure-deps.sh lsp), compared with the command line.
lsp-check: all $(B)/samples/install.stamp
	@scripts/ensure-deps.sh lsp
	$(Q)ATRC=$(abspath $(B)/atrc) INSTALL=$(abspath $(SAMPLE_INSTALL)) sh tests/lsp/run.sh

# The include rule of src/ (scripts/check-layers.sh), and the script's own test.
layers:
	@echo "== include layers"
	$(Q)sh tests/layers/run.sh

# The calls the compiled objects make point the way the includes do.
calls: all
	@scripts/ensure-deps.sh model
	@echo "== call layers"
	$(Q)sh tests/layers/calls.sh $(B)/obj

CHECK_SUITES := layers calls unit golden hostile parallel diff-portable pictures install-check manlint readme-check lsp-check check-vscode dist-check
check: $(CHECK_SUITES)
	$(Q)sh scripts/check-summary.sh $(SKIPS) "$(if $(filter 1,$(SANITIZE)),sanitized,$(if $(filter thread,$(SANITIZE)),thread-sanitized,normal)) build" $(CHECK_SUITES)

# ---- samples ----
SAMPLE_GAME := $(B)/samples/game

$(B)/samples/.stamp: $(B)/mkxanim samples/xanims.txt $(wildcard samples/game/animtrees/*)
	$(call say,GEN,$(SAMPLE_GAME))
	$(Q)rm -rf $(SAMPLE_GAME) && mkdir -p $(SAMPLE_GAME)/xanim && cp -R samples/game/animtrees $(SAMPLE_GAME)/ \
	    && $(B)/mkxanim -l samples/xanims.txt -d $(SAMPLE_GAME)/xanim && touch $@

# The sample install (level mode): samples/install/main plus generated xanims.
# Loose files for now; the game keeps them in .pk3/.iwd archives.
SAMPLE_INSTALL := $(B)/samples/install
# The sample install as a game ships it: its main/ packed into two archives
# (scripts in pak0.iwd; trees and xanims in pak1.iwd), nothing loose.
$(B)/samples/install.stamp: $(B)/mkxanim $(B)/mkpk3 samples/install/xanims.txt $(shell find samples/install/main -type f)
	$(call say,GEN,$(SAMPLE_INSTALL))
	$(Q)rm -rf $(SAMPLE_INSTALL) $(B)/samples/install-files && mkdir -p $(SAMPLE_INSTALL)/main $(B)/samples/install-files \
	    && cp -R samples/install/main/. $(B)/samples/install-files/ \
	    && mkdir -p $(B)/samples/install-files/xanim && $(B)/mkxanim -l samples/install/xanims.txt -d $(B)/samples/install-files/xanim \
	    && $(B)/mkpk3 $(SAMPLE_INSTALL)/main/pak0.iwd $(B)/samples/install-files codescripts maps mp \
	    && $(B)/mkpk3 $(SAMPLE_INSTALL)/main/pak1.iwd $(B)/samples/install-files animtrees xanim \
	    && touch $@

demo: all $(B)/samples/.stamp $(B)/samples/install.stamp
	@echo "== atrc --trees -g $(SAMPLE_GAME) samples/scripts/*.gsc"
	$(Q)$(B)/atrc --trees -g $(SAMPLE_GAME) $(sort $(wildcard samples/scripts/*.gsc))
	@echo "== atrc --explain 0x00010003 (decode a packed value)"
	$(Q)$(B)/atrc --explain 0x00010003 -g $(SAMPLE_GAME) $(sort $(wildcard samples/scripts/*.gsc))
	@echo "== atrc --profile cod2 --load-order --install $(SAMPLE_INSTALL) --map mp_harbour --gametype tdm (level mode, two .iwd archives)"
	$(Q)$(B)/atrc --profile cod2 --load-order --install $(SAMPLE_INSTALL) --map mp_harbour --gametype tdm
	$(Q)if command -v dot >/dev/null 2>&1; then \
	    $(B)/atrc --format dot --show-pruned -g $(SAMPLE_GAME) $(sort $(wildcard samples/scripts/*.gsc)) >$(B)/samples/trees.dot \
	    && dot -Tsvg -o $(B)/samples/trees.svg $(B)/samples/trees.dot \
	    && echo "== the trees as a picture: $(B)/samples/trees.svg (atrc --format dot --show-pruned | dot -Tsvg)"; \
	else echo "== install Graphviz (scripts/ensure-deps.sh graphviz) to render the trees to SVG"; fi

# ---- real-world check against a corpus directory (never copied into the project) ----
corpus-check: all
	@test -n "$(CORPUS)" || { echo "usage: make corpus-check CORPUS=../shared/corpus/cod1" >&2; exit 2; }
	$(Q)ATRC=$(abspath $(B)/atrc) MKXANIM=$(abspath $(B)/mkxanim) MKPK3=$(abspath $(B)/mkpk3) sh scripts/corpus-check.sh "$(CORPUS)" $(B)/corpus

# An independent model of the tree rules (tests/model/atr_model.py, written
# from the specification) checks atrc's numbering, checksums, values, duplicate
# and parse-error reports on random and noisy trees — and, with CORPUS=DIR, on
# every tree a corpus' scripts build.
MODEL_CASES ?= 3000
model-check: all
	@scripts/ensure-deps.sh model
	$(Q)python3 tests/model/atr_model.py random $(B)/atrc $(MODEL_CASES) 1
	$(Q)python3 tests/model/atr_model.py assets $(B)/atrc $(MODEL_CASES) 1
	$(Q)if [ -n "$(CORPUS)" ]; then python3 tests/model/atr_model.py check $(B)/atrc $(CORPUS) \
	    $$(find $(CORPUS)/scripts -name '*.gsc' | LC_ALL=C sort); fi

bench: all
	$(Q)ATRC=$(abspath $(B)/atrc) B=$(abspath $(B)) sh scripts/bench.sh

# One error per mistake on real scripts (tests/test_mutation.c; GAME_CORPUS
# defaults to ../shared/corpus/cod1-game): the figures `make check` asserts.
mutation-report: $(B)/unit-tests
	$(Q)CK_RUN_SUITE=mutation CK_VERBOSITY=silent ATRC_MUTATION_REPORT=1 \
	    $(if $(GAME_CORPUS),ATRC_GAME_CORPUS=$(GAME_CORPUS)) $(B)/unit-tests

# valgrind on the samples and on runs full of errors (atrc exits 1 there; valgrind's own
# findings exit 99).
VALGRIND = valgrind -q --leak-check=full --errors-for-leak-kinds=all --error-exitcode=99
memcheck: all $(B)/samples/.stamp $(B)/samples/install.stamp
	@scripts/ensure-deps.sh memcheck
	$(Q)$(VALGRIND) $(B)/atrc --profile cod2 --load-order --developer-script --install $(SAMPLE_INSTALL) --map mp_harbour --gametype tdm >/dev/null
	$(Q)cd tests/golden/level && $(VALGRIND) $(abspath $(B)/atrc) --no-xanim -g broken --map mp_gone --gametype dm >/dev/null 2>&1; \
	    test $$? -ne 99 || { echo "memcheck: valgrind reported errors on level mode" >&2; exit 1; }
	$(Q)$(VALGRIND) $(B)/atrc --trees --format json -g $(SAMPLE_GAME) $(sort $(wildcard samples/scripts/*.gsc)) >/dev/null
	$(Q)$(VALGRIND) $(B)/atrc --trees -g $(SAMPLE_GAME) $(sort $(wildcard samples/scripts/*.gsc)) >/dev/null
	$(Q)rm -rf $(B)/memcheck-inst && mkdir -p $(B)/memcheck-inst/main && $(B)/mkpk3 $(B)/memcheck-inst/main/pak0.pk3 $(SAMPLE_GAME)
	$(Q)$(VALGRIND) $(B)/atrc --trees --install $(B)/memcheck-inst $(sort $(wildcard samples/scripts/*.gsc)) >/dev/null
	$(Q)cd tests/golden/trees && for args in "errors.gsc" "badsync.gsc" "badparse.gsc" "dup.gsc" "-g broken human.gsc"; do \
	    $(VALGRIND) $(abspath $(B)/atrc) -g game $$args >/dev/null 2>&1; rc=$$?; \
	    if [ $$rc -ne 0 ] && [ $$rc -ne 1 ]; then echo "memcheck: valgrind reported errors on: $$args" >&2; \
	        $(VALGRIND) $(abspath $(B)/atrc) -g game $$args >/dev/null; exit 1; fi; done
	$(Q)$(VALGRIND) $(B)/atrc --dump-ast $(sort $(wildcard samples/scripts/*.gsc)) tests/golden/syntax/*.gsc >/dev/null 2>&1; \
	    test $$? -ne 99 || { echo "memcheck: valgrind reported errors on --dump-ast" >&2; exit 1; }
	@echo "memcheck: clean"

FUZZ_SECONDS ?= 60
fuzz:
	@scripts/ensure-deps.sh fuzz
	$(Q)$(MAKE) --no-print-directory -f tests/fuzz/fuzz.mk FUZZ_SECONDS=$(FUZZ_SECONDS) run

# ---- Windows: cross-compiled with mingw-w64, tested under Wine (win/) ----
# The host build generates the lexers, parsers and builtin tables first.
WIN_MAKE = $(MAKE) --no-print-directory -f win/windows.mk HOST_B=$(B) GEN_C="$(GEN_C)"
windows: $(GEN_C) $(GEN_H) $(B)/suites.inc
	@scripts/ensure-deps.sh windows
	$(Q)$(WIN_MAKE) windows

check-windows: dist-windows all $(B)/samples/.stamp $(B)/samples/install.stamp
	$(Q)B=$(abspath $(B)) W=$(abspath build/win64) sh win/check.sh
	@# the VS Code extension's win32-x64 package, with this atrc.exe inside (needs node and npm)
	$(Q)if [ "$(HAVE_NODE_NPM)" = yes ]; then $(MAKE) --no-print-directory vsix-win32-x64 && \
	    echo "== VS Code extension: the win32-x64 package" && \
	    node editors/vscode/test/check.js --version $(VERSION) --platform-vsix $(call VSIX_PLATFORM,win32-x64) win32-x64 build/win64/atrc.exe; \
	else echo "== VS Code extension's win32-x64 package: skipped (node or npm not found)"; fi

dist-windows: windows
	$(Q)$(WIN_MAKE) dist-windows

# ---- the source release: build/atrc-VERSION.tar.gz ----
# Every file git tracks (as in the working tree), under atrc-VERSION/, with
# the same bytes for the same files: names sorted, owner 0, the last
# commit's time, gzip without a name or time.  The listing is checked
# (tests/dist/check-archive.sh: LICENSE, every tracked file, nothing else).
DIST_SRC := build/atrc-$(VERSION).tar.gz
dist:
	@git rev-parse --is-inside-work-tree >/dev/null 2>&1 || { \
	    echo "atrc: make dist packs the files git tracks: run it in a git checkout" >&2; exit 2; }
	$(call say,TAR,$(DIST_SRC))
	@mkdir -p build
	$(Q)git ls-files -z | tar --null -T - --transform 's|^|atrc-$(VERSION)/|S' --sort=name --owner=0 --group=0 \
	    --numeric-owner --mtime=@$$(git log -1 --format=%ct) -cf - | gzip -n9 >$(DIST_SRC).tmp && mv $(DIST_SRC).tmp $(DIST_SRC)
	$(Q)sh tests/dist/check-archive.sh tarball $(DIST_SRC)

# make check's part: the tarball where there is a checkout to pack (an
# unpacked tarball has none: noted as skipped).
dist-check:
	$(Q)if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then rm -f $(SKIPS)/dist-check; \
	    $(MAKE) --no-print-directory dist; \
	else $(call skip_log,dist-check) sh -c 'echo "make dist: not a git checkout" >"$$ATRC_SKIP_LOG"'; fi

# ---- installation ----
install: all
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(INCLUDEDIR) $(DESTDIR)$(LIBDIR)/pkgconfig $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(DOCDIR)
	install -m 755 $(B)/atrc $(DESTDIR)$(BINDIR)/atrc
	install -m 644 include/atrc.h $(DESTDIR)$(INCLUDEDIR)/atrc.h
	install -m 644 $(B)/libatrc.a $(DESTDIR)$(LIBDIR)/libatrc.a
	install -m 755 $(B)/libatrc.so.$(VERSION) $(DESTDIR)$(LIBDIR)/libatrc.so.$(VERSION)
	ln -sf libatrc.so.$(VERSION) $(DESTDIR)$(LIBDIR)/$(SONAME)
	ln -sf $(SONAME) $(DESTDIR)$(LIBDIR)/libatrc.so
	printf '%s\n' 'prefix=$(PREFIX)' 'libdir=$(LIBDIR)' 'includedir=$(INCLUDEDIR)' '' \
	    'Name: atrc' 'Description: animation-tree compiler for Call of Duty-era game scripts' \
	    'Version: $(VERSION)' 'Requires.private: libzip' 'Libs: -L$${libdir} -latrc' \
	    'Libs.private: -lm -pthread' 'Cflags: -I$${includedir}' \
	    > $(DESTDIR)$(LIBDIR)/pkgconfig/atrc.pc
	install -m 644 doc/atrc.1 $(DESTDIR)$(MANDIR)/man1/atrc.1
	install -m 644 LICENSE $(DESTDIR)$(DOCDIR)/LICENSE

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/atrc $(DESTDIR)$(INCLUDEDIR)/atrc.h $(DESTDIR)$(LIBDIR)/libatrc.a \
	    $(DESTDIR)$(LIBDIR)/libatrc.so.$(VERSION) $(DESTDIR)$(LIBDIR)/$(SONAME) $(DESTDIR)$(LIBDIR)/libatrc.so \
	    $(DESTDIR)$(LIBDIR)/pkgconfig/atrc.pc $(DESTDIR)$(MANDIR)/man1/atrc.1 $(DESTDIR)$(DOCDIR)/LICENSE
	-rmdir $(DESTDIR)$(DOCDIR) 2>/dev/null

clean:
	rm -rf build

include wasm.mk
include editors/vscode/vscode.mk

-include $(wildcard $(B)/obj/*.d $(B)/obj/*/*.d)
