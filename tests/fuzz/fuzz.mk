# libFuzzer harnesses for atrc.  The main Makefile runs
#     $(MAKE) -f tests/fuzz/fuzz.mk FUZZ_SECONDS=N run
# after scripts/ensure-deps.sh fuzz.  Targets:
#   build   compile the library with coverage + ASan + UBSan into $(FB)/ and
#           link one binary per harness ($(FB)/fuzz_<name>)
#   run     run each harness FUZZ_SECONDS seconds from its seed corpus
#           (tests/fuzz/corpus/<name>/, committed) into a work corpus
#           ($(FB)/work/<name>/, never committed); crashes land in
#           $(FB)/artifacts/
#   replay  run every committed seed once through each binary
# The generated scanner/parser come from the main Makefile's rules (one
# definition of the re2c/lemon flags), built into $(FB)/gen.

FUZZ_SECONDS ?= 60
FUZZ_JOBS    ?= 1
FB           ?= build/fuzz
FUZZ_CC      ?= clang
HARNESSES    := script atr xanim pipeline archive json searchpath jsonrpc lsp

# Coverage for the library, the libFuzzer driver only in the harness link.
SAN      := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
FCFLAGS  := -std=c99 -pthread -g -O1 $(SAN) -fsanitize=fuzzer-no-link -Wall -Wextra
FCPPFLAGS := -Iinclude -Isrc -I$(FB)/gen -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE $(shell pkg-config --cflags libzip)

include sources.mk
RE_SRC   := $(sort $(wildcard grammar/*.re))
Y_SRC    := $(sort $(wildcard grammar/*.y))
GEN_C    := $(patsubst grammar/%.re,$(FB)/gen/%.c,$(RE_SRC)) $(patsubst grammar/%.y,$(FB)/gen/%.c,$(Y_SRC)) \
            $(FB)/gen/builtin_tables.c
GEN_H    := $(patsubst grammar/%.y,$(FB)/gen/%.h,$(Y_SRC))
LIB_OBJ  := $(patsubst src/%.c,$(FB)/obj/%.o,$(LIB_SRC)) $(patsubst $(FB)/gen/%.c,$(FB)/obj/%.o,$(GEN_C))
# The executable's sources but main.c: the language server's, for the
# harnesses that drive it.
CLI_OBJ  := $(patsubst src/%.c,$(FB)/obj/%.o,$(filter-out src/cli/main.c,$(CLI_SRC)))
BINS     := $(patsubst %,$(FB)/fuzz_%,$(HARNESSES))

# Largest input per harness: scripts and trees get room for deep nesting and
# long tokens; an xanim's walk to its notetracks needs a few parts, key
# lists and names: a few kilobytes.
MAXLEN_script   := 65536
MAXLEN_atr      := 65536
MAXLEN_xanim    := 4096
MAXLEN_pipeline := 65536
MAXLEN_archive  := 65536
MAXLEN_json     := 65536
MAXLEN_searchpath := 16384
MAXLEN_jsonrpc  := 65536
# A session: up to 300 steps, each a few bytes (an opened text up to 255).
MAXLEN_lsp      := 8192

ifeq ($(V),1)
Q :=
else
Q := @
endif

.PHONY: build run replay clean
build: $(BINS)

# One sub-make makes every generated file (a stamp, so that a parallel
# build does not start it once per file).
$(FB)/gen/.stamp: $(RE_SRC) $(Y_SRC) $(wildcard data/builtins/*.txt) scripts/gen_builtins.c
	$(Q)$(MAKE) --no-print-directory -f Makefile B=$(FB)/gen $(GEN_C) $(GEN_H)
	$(Q)touch $@
$(GEN_C) $(GEN_H): $(FB)/gen/.stamp ;

$(FB)/obj:
	@mkdir -p $@

$(FB)/obj/%.o: src/%.c $(GEN_H) | $(FB)/obj
	@printf '  %-7s %s\n' FUZZCC $@
	@mkdir -p $(@D)
	$(Q)$(FUZZ_CC) $(FCPPFLAGS) $(FCFLAGS) -MMD -MP -c -o $@ $<

$(FB)/obj/%.o: $(FB)/gen/%.c | $(FB)/obj
	@printf '  %-7s %s\n' FUZZCC $@
	$(Q)$(FUZZ_CC) $(FCPPFLAGS) $(FCFLAGS) -Wno-unused-parameter -Wno-unused-variable \
	    -Wno-unused-but-set-variable -Wno-implicit-fallthrough -c -o $@ $<

$(FB)/libatrc-fuzz.a: $(LIB_OBJ)
	$(Q)rm -f $@ && ar rcs $@ $^

$(FB)/libatrc-cli-fuzz.a: $(CLI_OBJ)
	$(Q)rm -f $@ && ar rcs $@ $^

$(FB)/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/fuzz_common.h tests/fuzz/fuzz_gamefs.h tests/zip_testlib.h \
              $(FB)/libatrc-cli-fuzz.a $(FB)/libatrc-fuzz.a
	@printf '  %-7s %s\n' FUZZLD $@
	$(Q)$(FUZZ_CC) $(FCPPFLAGS) -std=c99 -g -O1 $(SAN) -fsanitize=fuzzer -Wall -Wextra -Werror \
	    -o $@ $< $(FB)/libatrc-cli-fuzz.a $(FB)/libatrc-fuzz.a $(shell pkg-config --libs libzip) -lm -pthread

# One harness after the other, each FUZZ_SECONDS; stops at the first finding.
run: build
	$(Q)mkdir -p $(FB)/artifacts
	$(Q)for h in $(HARNESSES); do \
	    mkdir -p $(FB)/work/$$h; \
	    dict=""; [ -f tests/fuzz/$$h.dict ] && dict="-dict=tests/fuzz/$$h.dict"; \
	    case $$h in script) max=$(MAXLEN_script);; atr) max=$(MAXLEN_atr);; \
	        xanim) max=$(MAXLEN_xanim);; archive) max=$(MAXLEN_archive);; json) max=$(MAXLEN_json);; searchpath) max=$(MAXLEN_searchpath);; jsonrpc) max=$(MAXLEN_jsonrpc);; \
	        lsp) max=$(MAXLEN_lsp);; \
        *) max=$(MAXLEN_pipeline);; esac; \
	    echo "== fuzz_$$h for $(FUZZ_SECONDS)s (corpus tests/fuzz/corpus/$$h, work $(FB)/work/$$h)"; \
	    $(FB)/fuzz_$$h -max_total_time=$(FUZZ_SECONDS) -max_len=$$max -timeout=20 \
	        -rss_limit_mb=2048 -print_final_stats=1 $(if $(filter-out 1,$(FUZZ_JOBS)),-jobs=$(FUZZ_JOBS) -workers=$(FUZZ_JOBS)) $$dict \
	        -artifact_prefix=$(FB)/artifacts/$$h- $(FB)/work/$$h tests/fuzz/corpus/$$h \
	        2>$(FB)/work/$$h.log; rc=$$?; \
	    grep -E '^stat::(number_of_executed_units|average_exec_per_sec|peak_rss_mb)|^#[0-9]+.*DONE' $(FB)/work/$$h.log; \
	    if [ $$rc -ne 0 ]; then \
	        echo "fuzz_$$h: FAILED (exit $$rc); see $(FB)/work/$$h.log and $(FB)/artifacts/" >&2; \
	        grep -E 'ERROR|SUMMARY|Test unit written' $(FB)/work/$$h.log | head -5 >&2; exit 1; \
	    fi; \
	done; echo "fuzz: no findings"

replay: build
	$(Q)for h in $(HARNESSES); do $(FB)/fuzz_$$h -runs=0 tests/fuzz/corpus/$$h 2>&1 | tail -1 || exit 1; done

clean:
	rm -rf $(FB)

-include $(wildcard $(FB)/obj/*.d $(FB)/obj/*/*.d)
