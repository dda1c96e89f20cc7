# The VS Code extension (included from Makefile).
#   make vsix          build/atrc-vscode-<version>.vsix: editors/vscode/
#                      packaged by @vscode/vsce, with vscode-languageclient
#                      bundled (npm ci from the committed package-lock.json)
#   make check-vscode  (part of make check) the grammars tokenized by
#                      vscode-textmate on vscode-oniguruma (and compared
#                      with atrc --dump-ast on corpus scripts), the extension's
#                      executable lookup and messages, and the .vsix's
#                      contents; skipped when node or npm is missing
# The package always goes to build/, whatever B a sanitized build uses.

VSCODE_DIR     := editors/vscode
VSCODE_VERSION := $(shell sed -n 's/^  "version": "\(.*\)",$$/\1/p' $(VSCODE_DIR)/package.json)
VSIX           := build/atrc-vscode-$(VSCODE_VERSION).vsix
VSCODE_SRC     := $(VSCODE_DIR)/package.json $(VSCODE_DIR)/package-lock.json $(VSCODE_DIR)/.vscodeignore LICENSE \
                  $(VSCODE_DIR)/README.md $(VSCODE_DIR)/extension.js $(wildcard $(VSCODE_DIR)/lib/*.js) \
                  $(wildcard $(VSCODE_DIR)/*-language-configuration.json) $(wildcard $(VSCODE_DIR)/syntaxes/*.json)
VSCODE_STAMP   := $(VSCODE_DIR)/node_modules/.atrc-npm-ci
HAVE_NODE_NPM  := $(if $(shell command -v node 2>/dev/null),$(if $(shell command -v npm 2>/dev/null),yes))

.PHONY: vsix vscode-deps check-vscode

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

ifeq ($(HAVE_NODE_NPM),yes)
check-vscode: $(VSIX) $(B)/atrc
	@echo "== VS Code extension: grammars, extension, $(VSIX)"
	$(Q)$(call skip_log,check-vscode) node $(VSCODE_DIR)/test/check.js --vsix $(VSIX) --version $(VERSION) --atrc $(abspath $(B)/atrc)
else
check-vscode:
	@echo "== VS Code extension: skipped (node or npm not found; scripts/ensure-deps.sh vscode installs them)"
	$(Q)$(call skip_log,check-vscode) sh -c 'echo "the VS Code extension: node or npm not found (scripts/ensure-deps.sh vscode)" >"$$ATRC_SKIP_LOG"'
endif
