# The WebAssembly build and the browser playground (included from Makefile).
#   make wasm        build/wasm/: the library and CLI compiled by emscripten
#                    (Debian's emcc), without archives (ATRC_NO_ARCHIVES); the
#                    playground page in build/wasm/web/
#   make check-wasm  the golden cases run with the wasm CLI under node
#   make check-web   the page in headless Chromium (tests/web/), compared with
#                    the native CLI on the same inputs
# The generated lexer, parser and builtin tables come from the native build
# ($(B)); re2c, lemon and the table generator run on the host.

EMCC      ?= emcc
WB        := build/wasm
# Debian's emscripten runs its JS optimizer with Debian's acorn.
EM_ENV    := NODE_PATH=/usr/share/nodejs
WASM_OPT  ?= -O2
WASM_DEFS := -DATRC_NO_ARCHIVES
# The native flags less the host's libzip (its include path is not for wasm).
WASM_CPPFLAGS = $(filter-out $(ZIP_CFLAGS),$(CPPFLAGS)) $(WASM_DEFS)
WASM_OBJ  := $(patsubst src/%.c,$(WB)/obj/%.o,$(LIB_SRC) $(CLI_SRC)) \
             $(patsubst $(B)/%.c,$(WB)/obj/%.o,$(GEN_C))
# No -pthread: pthread_create fails and the front end reads on the calling
# thread; so no SharedArrayBuffer, and the page needs no special headers.
WASM_LINK := $(WASM_OPT) -sALLOW_MEMORY_GROWTH=1 -lm
WEB_FILES := $(sort $(wildcard web/*.html web/*.css web/*.js web/*.json))
WEB_OUT   := $(patsubst web/%,$(WB)/web/%,$(WEB_FILES))
# The page's examples (web/examples.json names them): the README's worked
# packing (samples/packing/) and the sample scripts and trees.
WEB_EXAMPLES := $(patsubst samples/packing/%,$(WB)/web/examples/packing/%,$(wildcard samples/packing/*.gsc)) \
                $(patsubst samples/packing/game/animtrees/%,$(WB)/web/examples/packing/%,$(wildcard samples/packing/game/animtrees/*.atr)) \
                $(patsubst samples/scripts/%,$(WB)/web/examples/samples/%,$(wildcard samples/scripts/*.gsc)) \
                $(patsubst samples/game/animtrees/%,$(WB)/web/examples/samples/%,$(wildcard samples/game/animtrees/*.atr))

.PHONY: wasm wasm-deps check-wasm web-deps check-web

wasm: $(WB)/atrc $(WB)/web/atrc.js $(WEB_OUT) $(WEB_EXAMPLES)

# After the base group (one apt-get at a time under make -j).
wasm-deps: deps
	@scripts/ensure-deps.sh wasm

$(WB)/obj:
	@mkdir -p $@

$(WB)/obj/%.o: src/%.c wasm.mk sources.mk | wasm-deps $(WB)/obj $(GEN_H)
	$(call say,EMCC,$@)
	@mkdir -p $(@D)
	$(Q)$(EM_ENV) $(EMCC) $(WASM_CPPFLAGS) -std=c99 $(WASM_OPT) $(WARN) -MMD -MP -c -o $@ $<

$(WB)/obj/%.o: $(B)/%.c wasm.mk | wasm-deps $(WB)/obj $(GEN_H)
	$(call say,EMCC,$@)
	$(Q)$(EM_ENV) $(EMCC) $(WASM_CPPFLAGS) $(GEN_DEFS) -std=c99 $(WASM_OPT) $(GEN_WARN) -MMD -MP -c -o $@ $<

$(patsubst grammar/%.y,$(WB)/obj/%.o,$(Y_SRC)): GEN_DEFS := -DNDEBUG

# For node (the golden runs): the real file system (NODERAWFS), the process's
# arguments, exit status and streams; build/wasm/atrc runs it like the native
# CLI.  Compiled synchronously: node 20's loader would otherwise fetch() the
# .wasm by its path and fail.
$(WB)/atrc-node.js: $(WASM_OBJ)
	$(call say,EMLINK,$@)
	$(Q)$(EM_ENV) $(EMCC) $(WASM_LINK) -sENVIRONMENT=node -sNODERAWFS=1 -sEXIT_RUNTIME=1 \
	    -sWASM_ASYNC_COMPILATION=0 -o $@ $(WASM_OBJ)

$(WB)/atrc: $(WB)/atrc-node.js wasm.mk
	$(Q)printf '%s\n' '#!/bin/sh' '# atrc compiled to WebAssembly, run by node (make wasm).' \
	    'exec node "$$(dirname "$$0")/atrc-node.js" "$$@"' >$@ && chmod +x $@

# For the browser: a module factory (createAtrc) whose callMain runs the CLI
# again and again over an in-memory file system (FS).
$(WB)/web/atrc.js: $(WASM_OBJ)
	@mkdir -p $(WB)/web
	$(call say,EMLINK,$@)
	$(Q)$(EM_ENV) $(EMCC) $(WASM_LINK) -sENVIRONMENT=web -sMODULARIZE=1 -sEXPORT_NAME=createAtrc \
	    -sINVOKE_RUN=0 -sEXIT_RUNTIME=0 -sFORCE_FILESYSTEM=1 \
	    -sEXPORTED_RUNTIME_METHODS=callMain,FS -o $@ $(WASM_OBJ)

$(WB)/web/%: web/%
	@mkdir -p $(WB)/web
	$(Q)cp $< $@

$(WB)/web/examples/packing/%: samples/packing/%
	@mkdir -p $(@D) && cp $< $@
$(WB)/web/examples/packing/%: samples/packing/game/animtrees/%
	@mkdir -p $(@D) && cp $< $@
$(WB)/web/examples/samples/%: samples/scripts/%
	@mkdir -p $(@D) && cp $< $@
$(WB)/web/examples/samples/%: samples/game/animtrees/%
	@mkdir -p $(@D) && cp $< $@

# Golden cases that need archives or POSIX-only behaviour are listed, with
# the reason, in tests/wasm/skip.txt.
check-wasm: wasm all
	@echo "== golden tests with the wasm CLI (node)"
	$(Q)ATRC=$(abspath $(WB)/atrc) MKXANIM=$(abspath $(B)/mkxanim) MKPK3=$(abspath $(B)/mkpk3) sh tests/wasm/run.sh

web-deps: wasm-deps
	@scripts/ensure-deps.sh web

check-web: wasm all web-deps
	@echo "== playground in headless Chromium"
	$(Q)cd tests/web && npm ci --no-audit --no-fund --silent
	$(Q)ATRC=$(abspath $(B)/atrc) WEB_DIR=$(abspath $(WB)/web) node tests/web/check.mjs

-include $(wildcard $(WB)/obj/*.d $(WB)/obj/*/*.d)
