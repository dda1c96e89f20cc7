# The VS Code extension (included from Makefile).
#   make vsix          build/atrc-vscode-<version>.vsix: editors/vscode/
#                      packaged by @vscode/vsce, with vscode-languageclient
#                      bundled (npm ci from the committed package-lock.json)
#   make check-vscode  (part of make check) the grammars tokenized by
#                      vscode-textmate on vscode-oniguruma (and compared
#                      with atrc --dump-ast on corpus scripts), the extension's
#                      executable lookup and messages, and the .vsix's
#                      contents; skipped when node or npm is missing
#   make check-vscode-real  VS Code itself (code-server from npm, installed
#                      into build/code-server by scripts/code-server.sh, cached)
#                      with the linux-x64 .vsix (atrc inside) installed, driven in Debian's chromium by
#                      playwright-core on stock CoD4 scripts
#                      (tests/vscode-real/check.mjs); screenshots of each step
#                      in build/vscode-real/
# The package always goes to build/, whatever B a sanitized build uses.

VSCODE_DIR     := editors/vscode
VSCODE_VERSION := $(shell sed -n 's/^  "version": "\(.*\)",$$/\1/p' $(VSCODE_DIR)/package.json)
VSIX           := build/atrc-vscode-$(VSCODE_VERSION).vsix
VSCODE_SRC     := $(VSCODE_DIR)/package.json $(VSCODE_DIR)/package-lock.json $(VSCODE_DIR)/.vscodeignore LICENSE \
                  $(VSCODE_DIR)/README.md $(VSCODE_DIR)/extension.js $(wildcard $(VSCODE_DIR)/lib/*.js) \
                  $(wildcard $(VSCODE_DIR)/*-language-configuration.json) $(wildcard $(VSCODE_DIR)/syntaxes/*.json)
VSCODE_STAMP   := $(VSCODE_DIR)/node_modules/.atrc-npm-ci
HAVE_NODE_NPM  := $(if $(shell command -v node 2>/dev/null),$(if $(shell command -v npm 2>/dev/null),yes))

.PHONY: vsix vscode-deps check-vscode check-vscode-real

vsix: $(VSIX)

# After the base group (one apt-get at a time under make -j).
vscode-deps: deps
	@scripts/ensure-deps.sh vscode

# npm ci installs exactly the lock file's packages (it needs the npm
# registry, or npm's cache holding them).
$(VSCODE_STAMP): $(VSCODE_DIR)/package.json $(VSCODE_DIR)/package-lock.json | vscode-deps
	@command -v npm >/dev/null 2>&1 || { echo "atrc: make vsix needs node and npm (scripts/ensure-deps.sh vscode installs them)" >&2; exit 1; }
	$(call say,NPM,$(VSCODE_DIR))
	$(Q)cd $(VSCODE_DIR) && npm ci --no-audit --no-fund --silent || { \
	    echo "atrc: npm ci failed in $(VSCODE_DIR): it installs from the npm registry (or npm's cache)" >&2; exit 1; }
	$(Q)touch $@

# The extension's version is atrc's (include/atrc.h).
$(VSIX): $(VSCODE_SRC) $(VSCODE_STAMP) include/atrc.h
	@test "$(VSCODE_VERSION)" = "$(VERSION)" || { echo "atrc: $(VSCODE_DIR)/package.json has version $(VSCODE_VERSION), atrc is $(VERSION)" >&2; exit 1; }
	$(call say,VSCE,$@)
	@mkdir -p $(@D)
	$(Q)cd $(VSCODE_DIR) && ./node_modules/.bin/vsce package --allow-missing-repository \
	    -o $(abspath $@.tmp.vsix) >$(abspath $@.log) 2>&1 || { cat $(abspath $@.log) >&2; rm -f $(abspath $@.tmp.vsix); exit 1; }
	$(Q)mv $@.tmp.vsix $@

# One package per platform with that platform's atrc inside
# (bin/<target>/atrc[.exe]; the extension uses it when atrc.executable is
# unset): the extension's files and node_modules staged in build/vsix-<target>/
# beside the executable, then vsce package --target.  linux-x64 carries
# build/atrc, win32-x64 build/win64/atrc.exe (make windows).
#   make vsix-linux-x64 vsix-win32-x64
VSIX_PLATFORM = build/atrc-vscode-$(VSCODE_VERSION)-$(1).vsix
VSIX_BIN_linux-x64 := build/atrc
VSIX_BIN_win32-x64 := build/win64/atrc.exe
VSIX_EXE_linux-x64 := atrc
VSIX_EXE_win32-x64 := atrc.exe
.PHONY: vsix-linux-x64 vsix-win32-x64
vsix-linux-x64: $(call VSIX_PLATFORM,linux-x64)
vsix-win32-x64: $(call VSIX_PLATFORM,win32-x64)
build/win64/atrc.exe:
	$(Q)$(MAKE) --no-print-directory windows

$(call VSIX_PLATFORM,linux-x64): $(VSIX_BIN_linux-x64)
$(call VSIX_PLATFORM,win32-x64): $(VSIX_BIN_win32-x64)
build/atrc-vscode-$(VSCODE_VERSION)-%.vsix: $(VSCODE_SRC) $(VSCODE_STAMP) include/atrc.h
	@test "$(VSCODE_VERSION)" = "$(VERSION)" || { echo "atrc: $(VSCODE_DIR)/package.json has version $(VSCODE_VERSION), atrc is $(VERSION)" >&2; exit 1; }
	$(call say,VSCE,$@)
	$(Q)rm -rf build/vsix-$* && mkdir -p build/vsix-$*/bin/$* \
	    && (cd $(VSCODE_DIR) && tar cf - $(patsubst $(VSCODE_DIR)/%,%,$(VSCODE_SRC)) node_modules) | (cd build/vsix-$* && tar xf -) \
	    && cp $(VSIX_BIN_$*) build/vsix-$*/bin/$*/$(VSIX_EXE_$*) && chmod 755 build/vsix-$*/bin/$*/$(VSIX_EXE_$*)
	$(Q)cd build/vsix-$* && ./node_modules/.bin/vsce package --target $* --skip-license --allow-missing-repository \
	    -o $(abspath $@.tmp.vsix) >$(abspath $@.log) 2>&1 || { cat $(abspath $@.log) >&2; rm -f $(abspath $@.tmp.vsix); exit 1; }
	$(Q)mv $@.tmp.vsix $@ && rm -rf build/vsix-$*

ifeq ($(HAVE_NODE_NPM),yes)
check-vscode: $(VSIX) $(B)/atrc
	@echo "== VS Code extension: grammars, extension, $(VSIX)"
	$(Q)$(call skip_log,check-vscode) node $(VSCODE_DIR)/test/check.js --vsix $(VSIX) --version $(VERSION) --atrc $(abspath $(B)/atrc)
else
check-vscode:
	@echo "== VS Code extension: skipped (node or npm not found; scripts/ensure-deps.sh vscode installs them)"
	$(Q)$(call skip_log,check-vscode) sh -c 'echo "the VS Code extension: node or npm not found (scripts/ensure-deps.sh vscode)" >"$$ATRC_SKIP_LOG"'
endif

# VS Code itself on the stock CoD4 killhouse scripts (COD4_GAME, default
# ../shared/corpus/cod4-game).  The first run installs code-server (about 7
# minutes on 2 cores); later runs reuse build/code-server.
COD4_GAME ?= ../shared/corpus/cod4-game
check-vscode-real: $(call VSIX_PLATFORM,linux-x64) $(B)/atrc
	@scripts/ensure-deps.sh vscode-real
	$(Q)node $(VSCODE_DIR)/test/check.js --version $(VERSION) --platform-vsix $(call VSIX_PLATFORM,linux-x64) linux-x64 build/atrc
	@test -f $(COD4_GAME)/maps/killhouse.gsc || { echo "atrc: make check-vscode-real needs the stock CoD4 scripts in $(COD4_GAME) (COD4_GAME=DIR)" >&2; exit 1; }
	$(Q)cd tests/web && npm ci --no-audit --no-fund --silent
	@echo "== VS Code itself (code-server): the extension on stock CoD4 scripts"
	$(Q)cs=$$(sh scripts/code-server.sh build/code-server) && rm -rf build/vscode-real && \
	    ATRC=$(abspath $(B)/atrc) CODE_SERVER=$$cs VSIX=$(call VSIX_PLATFORM,linux-x64) COD4_GAME=$(abspath $(COD4_GAME)) OUT=build/vscode-real \
	    node tests/vscode-real/check.mjs
