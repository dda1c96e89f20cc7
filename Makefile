# atrc — GNU Make build.  `make` builds build/atrc; `make demo`, `make check`,
# `make bench`, `make corpus-check CORPUS=DIR`, `make fuzz`, `make memcheck`.
# `make V=1` shows the commands; `make check SANITIZE=1` builds and tests with
# AddressSanitizer and UndefinedBehaviorSanitizer into build/san/;
# `make check SANITIZE=thread` with ThreadSanitizer into build/tsan/.

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
else ifeq ($(SANITIZE),thread)
B        ?= build/tsan
SANFLAGS := -fsanitize=thread -fno-omit-frame-pointer
export TSAN_OPTIONS := halt_on_error=1:exitcode=99
else
B        ?= build
SANFLAGS :=
# The generated parser's asserts check Lemon itself: off outside sanitizer builds.
GEN_OPT  := -DNDEBUG
endif

OPT      ?= -O2 -g
WARN     := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wvla
CPPFLAGS += -Iinclude -Isrc -I$(B) -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE
ALL_CFLAGS = -std=c99 -pthread $(OPT) $(SANFLAGS) $(CFLAGS)
# Generated parser/lexer code is compiled without the strictest prototypes checks.
GEN_WARN := -Wall -Wextra -Werror -Wno-unused-parameter -Wno-unused-variable -Wno-unused-but-set-variable -Wno-implicit-fallthrough
LDLIBS   += -lm -pthread

ifeq ($(V),1)
Q :=
say = @true
else
Q := @
say = @printf '  %-7s %s\n' $(1) $(2)
endif

LIB_SRC  := $(filter-out src/main.c,$(sort $(wildcard src/*.c)))
RE_SRC   := $(sort $(wildcard grammar/*.re))
Y_SRC    := $(sort $(wildcard grammar/*.y))
GEN_C    := $(patsubst grammar/%.re,$(B)/%.c,$(RE_SRC)) $(patsubst grammar/%.y,$(B)/%.c,$(Y_SRC))
GEN_H    := $(patsubst grammar/%.y,$(B)/%.h,$(Y_SRC))
LIB_OBJ  := $(patsubst src/%.c,$(B)/obj/%.o,$(LIB_SRC)) $(patsubst $(B)/%.c,$(B)/obj/%.o,$(GEN_C))
TEST_SRC := $(sort $(wildcard tests/*.c))
TEST_OBJ := $(patsubst tests/%.c,$(B)/obj/tests/%.o,$(TEST_SRC))
TOOLS    := $(patsubst tools/%.c,$(B)/%,$(sort $(wildcard tools/*.c)))

.SECONDARY: $(GEN_C) $(GEN_H)
.PHONY: all deps demo check unit golden hostile parallel bench corpus-check model-check fuzz memcheck clean
.DEFAULT_GOAL := all

all: $(B)/atrc $(TOOLS)

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
$(B)/%.c $(B)/%.h: grammar/%.y | deps $(B)/obj
	$(call say,LEMON,$@)
	$(Q)$(LEMON) -q -l -T$(LEMPAR) -d$(B) $< || { rm -f $(B)/$*.c $(B)/$*.h $(B)/$*.out; \
	    echo "atrc: grammar $< has conflicts (run: lemon -d/tmp $< and read /tmp/$*.out)" >&2; exit 1; }

$(B)/obj/%.o: $(B)/%.c | $(B)/obj $(GEN_H)
	$(call say,CC,$@)
	$(Q)$(CC) $(CPPFLAGS) $(GEN_OPT) $(ALL_CFLAGS) $(GEN_WARN) -MMD -MP -c -o $@ $<

$(B)/obj/%.o: src/%.c | $(B)/obj $(GEN_H)
	$(call say,CC,$@)
	$(Q)$(CC) $(CPPFLAGS) $(ALL_CFLAGS) $(WARN) -MMD -MP -c -o $@ $<

$(B)/libatrc.a: $(LIB_OBJ)
	$(call say,AR,$@)
	$(Q)rm -f $@ && ar rcs $@ $^

$(B)/atrc: $(B)/obj/main.o $(B)/libatrc.a
	$(call say,LINK,$@)
	$(Q)$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(B)/%: tools/%.c $(B)/libatrc.a | $(B)/obj
	$(call say,LINK,$@)
	$(Q)$(CC) $(CPPFLAGS) $(ALL_CFLAGS) $(WARN) $(LDFLAGS) -o $@ $< $(B)/libatrc.a $(LDLIBS)

# ---- unit tests (Check): one make_<area>_suite() per tests/test_<area>.c ----
CHECK_CFLAGS = $(shell $(PKG_CONFIG) --cflags check 2>/dev/null)
CHECK_LIBS   = $(shell $(PKG_CONFIG) --libs check 2>/dev/null)

$(B)/suites.inc: $(TEST_SRC) | $(B)/obj
	$(Q)grep -ho 'Suite \*make_[a-z0-9_]*_suite' $(TEST_SRC) /dev/null \
	    | sed 's/Suite \*make_\(.*\)_suite/SUITE(\1)/' > $@.tmp && mv $@.tmp $@

$(B)/obj/tests/%.o: tests/%.c $(B)/suites.inc | $(B)/obj/tests $(GEN_H) deps
	$(call say,CC,$@)
	$(Q)$(CC) $(CPPFLAGS) $(CHECK_CFLAGS) -DATRC_TEST_DIR='"tests"' $(ALL_CFLAGS) $(WARN) -Wno-missing-prototypes -MMD -MP -c -o $@ $<

$(B)/unit-tests: $(TEST_OBJ) $(B)/libatrc.a
	$(call say,LINK,$@)
	$(Q)$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $(TEST_OBJ) $(B)/libatrc.a $(CHECK_LIBS) $(LDLIBS)

unit: $(B)/unit-tests all
	@echo "== unit tests (Check)"
	$(Q)$(B)/unit-tests

golden: all
	@echo "== golden tests"
	$(Q)ATRC=$(abspath $(B)/atrc) MKXANIM=$(abspath $(B)/mkxanim) sh tests/run_golden.sh tests/golden
	$(Q)for j in 1 4 16; do JOBS=$$j ATRC=$(abspath $(B)/atrc) MKXANIM=$(abspath $(B)/mkxanim) \
	    sh tests/run_golden.sh tests/golden || exit 1; done

hostile: all
	@echo "== hostile inputs"
	$(Q)ATRC=$(abspath $(B)/atrc) B=$(abspath $(B)) sh tests/hostile/run.sh

# The same runs at -j 1, 2, 4 and 16 print the same bytes (real scripts too, when present).
PAR_CORPUS := $(abspath $(wildcard ../shared/corpus/cod1-game))
parallel: all
	@echo "== thread counts"
	$(Q)ATRC=$(abspath $(B)/atrc) CORPUS=$(PAR_CORPUS) MEMCHECK=$(if $(SANITIZE),,1) sh tests/parallel/run.sh

check: unit golden hostile parallel
	@echo "== all tests passed ($(if $(filter 1,$(SANITIZE)),sanitized,$(if $(filter thread,$(SANITIZE)),thread-sanitized,normal)) build)"

# ---- samples ----
SAMPLE_GAME := $(B)/samples/game

$(B)/samples/.stamp: $(B)/mkxanim samples/xanims.txt $(wildcard samples/game/animtrees/*)
	$(call say,GEN,$(SAMPLE_GAME))
	$(Q)rm -rf $(SAMPLE_GAME) && mkdir -p $(SAMPLE_GAME)/xanim && cp -R samples/game/animtrees $(SAMPLE_GAME)/ \
	    && $(B)/mkxanim -l samples/xanims.txt -d $(SAMPLE_GAME)/xanim && touch $@

demo: all $(B)/samples/.stamp
	@echo "== atrc --trees -g $(SAMPLE_GAME) samples/scripts/*.gsc"
	$(Q)$(B)/atrc --trees -g $(SAMPLE_GAME) $(sort $(wildcard samples/scripts/*.gsc))
	@echo "== atrc --explain 0x00010003 (decode a packed value)"
	$(Q)$(B)/atrc --explain 0x00010003 -g $(SAMPLE_GAME) $(sort $(wildcard samples/scripts/*.gsc))

# ---- real-world check against a corpus directory (never copied into the project) ----
corpus-check: all
	@test -n "$(CORPUS)" || { echo "usage: make corpus-check CORPUS=../shared/corpus/cod1" >&2; exit 2; }
	$(Q)ATRC=$(abspath $(B)/atrc) MKXANIM=$(abspath $(B)/mkxanim) sh scripts/corpus-check.sh "$(CORPUS)" $(B)/corpus

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

# valgrind on the samples and on runs full of errors (atrc exits 1 there; valgrind's own
# findings exit 99).
VALGRIND = valgrind -q --leak-check=full --errors-for-leak-kinds=all --error-exitcode=99
memcheck: all $(B)/samples/.stamp
	@scripts/ensure-deps.sh memcheck
	$(Q)$(VALGRIND) $(B)/atrc --trees --format json -g $(SAMPLE_GAME) $(sort $(wildcard samples/scripts/*.gsc)) >/dev/null
	$(Q)$(VALGRIND) $(B)/atrc --trees -g $(SAMPLE_GAME) $(sort $(wildcard samples/scripts/*.gsc)) >/dev/null
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

clean:
	rm -rf build

-include $(wildcard $(B)/obj/*.d $(B)/obj/tests/*.d)
