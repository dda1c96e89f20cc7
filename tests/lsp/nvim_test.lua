-- Headless Neovim (0.7: vim.lsp.start_client, request_sync, vim.wait) drives
-- `atrc lsp` as an editor does, and compares every answer with what the
-- command line says about the same files (atrc --format json).
--   nvim --headless --clean -u NONE -c 'luafile tests/lsp/nvim_test.lua'
-- Environment: ATRC (the binary), LSP_ROOT (the workspace, absolute),
-- LSP_OPEN (the script to open, relative to LSP_ROOT), LSP_CLI_ARGS (a JSON
-- array: the command line of the same compilation, run in LSP_ROOT),
-- LSP_INIT_FLAGS (a JSON array for initializationOptions.flags, or empty),
-- LSP_ENCODING (utf-8 to offer UTF-8 positions; default UTF-16), LSP_NAME.
local env = function(k) return os.getenv(k) or "" end
local atrc, root, open_rel = env("ATRC"), env("LSP_ROOT"), env("LSP_OPEN")
local cli_args = vim.fn.json_decode(env("LSP_CLI_ARGS"))
local utf8 = env("LSP_ENCODING") == "utf-8"
local name = env("LSP_NAME")
local failures = 0
local checks = 0

local function fail(msg)
  failures = failures + 1
  io.stderr:write("FAIL lsp " .. name .. ": " .. msg .. "\n")
end
local function check(cond, msg)
  checks = checks + 1
  if not cond then fail(msg) end
  return cond
end
local function finish()
  io.stderr:write(string.format("lsp %s: %d checks, %d failed\n", name, checks, failures))
  vim.cmd(failures == 0 and "qall!" or "cquit 1")
end

local function abs(file)
  if file:sub(1, 1) == "/" then return file end
  return root .. "/" .. file
end
local function read_lines(path)
  local f = io.open(path, "rb")
  if not f then return {} end
  local t = {}
  for line in (f:read("*a") .. "\n"):gmatch("(.-)\n") do t[#t + 1] = line end
  f:close()
  return t
end
-- An atrc byte column on a line of path, in the client's position units.
local function character(path, line, column)
  if utf8 then return column - 1 end
  local text = read_lines(path)[line] or ""
  local _, u16 = vim.str_utfindex(text, math.min(column - 1, #text))
  return u16
end

-- The command line's view (run in the workspace, on the files as saved).
local function cli_json()
  local cmd = "cd " .. vim.fn.shellescape(root) .. " && " .. vim.fn.shellescape(atrc) .. " --format json"
  for _, a in ipairs(cli_args) do cmd = cmd .. " " .. vim.fn.shellescape(a) end
  local out = vim.fn.system(cmd .. " 2>/dev/null")
  local ok, doc = pcall(vim.fn.json_decode, out)
  if not ok then fail("atrc --format json did not print JSON: " .. out:sub(1, 200)) return nil end
  return doc
end

-- The server.
local published = {}   -- file name -> {version=, diagnostics=}
local exit_code = nil
local init_flags = env("LSP_INIT_FLAGS") ~= "" and vim.fn.json_decode(env("LSP_INIT_FLAGS")) or nil
local caps = vim.lsp.protocol.make_client_capabilities()
if utf8 then caps.general = { positionEncodings = { "utf-8" } } end
local client_id = vim.lsp.start_client({
  name = "atrc",
  cmd = { atrc, "lsp" },
  root_dir = root,
  capabilities = caps,
  offset_encoding = utf8 and "utf-8" or "utf-16",
  init_options = init_flags and { flags = init_flags } or vim.empty_dict(),
  flags = { debounce_text_changes = 0 },
  handlers = {
    ["textDocument/publishDiagnostics"] = function(_, result)
      published[vim.uri_to_fname(result.uri)] = { version = result.version, diagnostics = result.diagnostics }
    end,
  },
  on_exit = function(code) exit_code = code end,
})
if not check(client_id, "the client did not start") then finish() return end

vim.cmd("edit " .. vim.fn.fnameescape(abs(open_rel)))
local buf = vim.api.nvim_get_current_buf()
local path = vim.api.nvim_buf_get_name(buf)
vim.lsp.buf_attach_client(buf, client_id)
local client = vim.lsp.get_client_by_id(client_id)

local function wait_version()
  local want = vim.lsp.util.buf_versions[buf]
  return vim.wait(20000, function()
    local p = published[path]
    return p ~= nil and (want == nil or p.version == want)
  end, 5)
end

local severity = { error = 1, warning = 2, note = 3 }
-- Every diagnostic the command line prints is published, with its position,
-- severity, code and message; a file the command line has nothing on has an
-- empty list (or none).
local function compare_diagnostics(doc, stage)
  local want = {}
  for _, d in ipairs(doc.diagnostics) do
    if d.file ~= vim.NIL and d.file and not d.file:find(":", 1, true) then
      local f = vim.fn.resolve(abs(d.file))
      want[f] = want[f] or {}
      table.insert(want[f], d)
    end
  end
  local files = {}
  for f in pairs(want) do files[f] = true end
  for f in pairs(published) do files[vim.fn.resolve(f)] = true end
  for f in pairs(files) do
    local got = {}
    for pf, p in pairs(published) do
      if vim.fn.resolve(pf) == f then got = p.diagnostics end
    end
    local w = want[f] or {}
    check(#got == #w, string.format("%s: %s: %d diagnostics published, the command line has %d", stage, f, #got, #w))
    for _, d in ipairs(w) do
      local ch = character(f, d.line, d.column)
      local found = false
      for _, g in ipairs(got) do
        if g.range.start.line == d.line - 1 and g.range.start.character == ch and g.message == d.message
          and g.severity == severity[d.severity] and g.source == "atrc"
          and (d.code == nil or g.code == d.code) then
          found = true
        end
      end
      check(found, string.format("%s: %s:%d:%d (%s) '%s' not published as the command line prints it",
        stage, f, d.line, d.column, d.code or "?", d.message))
    end
  end
end

-- The line of an .atr that declares name (its first word, any case).
local function atr_line(file, node)
  for i, line in ipairs(read_lines(file)) do
    local word = line:gsub("//.*", ""):match("^%s*([%w_]+)")
    if word and word:lower() == node:lower() then return i end
  end
  return nil
end

local function position(ref)
  return { textDocument = { uri = vim.uri_from_fname(path) }, position = { line = ref.line - 1, character = character(path, ref.line, ref.column) } }
end

local function compare_queries(doc)
  local trees = {}
  for _, t in ipairs(doc.trees) do trees[t.name] = t end
  local mine = 0
  for _, ref in ipairs(doc.references) do
    if ref.file ~= vim.NIL and vim.fn.resolve(abs(ref.file)) == vim.fn.resolve(path) then
      mine = mine + 1
      local r = client.request_sync("textDocument/hover", position(ref), 5000, buf)
      local text = r and r.result and r.result.contents and r.result.contents.value or ""
      if ref.kind == "anim" and ref.value ~= vim.NIL then
        check(text:find(string.format("0x%08x", ref.value), 1, true) and text:find(tostring(ref.value), 1, true),
          string.format("hover at %d:%d: '%s' lacks the value 0x%08x (%d)", ref.line, ref.column, text, ref.value, ref.value))
        local d = client.request_sync("textDocument/definition", position(ref), 5000, buf)
        local loc = d and d.result
        if loc and loc[1] then loc = loc[1] end
        local tree = trees[ref.tree]
        local want_file = tree and vim.fn.resolve(abs(tree.file))
        local want_line = want_file and atr_line(want_file, ref.name)
        check(loc and loc.uri and vim.fn.resolve(vim.uri_to_fname(loc.uri)) == want_file
          and loc.range.start.line + 1 == want_line,
          string.format("definition of %%%s: %s, want %s:%s", ref.name, vim.inspect(loc), want_file, tostring(want_line)))
      elseif ref.kind == "animtree" then
        check(text:find("= " .. tostring(ref.value), 1, true),
          string.format("hover on #animtree at %d:%d: '%s' lacks its index %s", ref.line, ref.column, text, tostring(ref.value)))
      end
    end
  end
  check(mine > 0, "the command line lists no reference in the opened file")
  -- a leaf whose notetracks the command line lists: the hover lists them, `end` last
  for _, ref in ipairs(doc.references) do
    local tree = trees[ref.tree]
    if ref.kind == "anim" and ref.value ~= vim.NIL and tree and vim.fn.resolve(abs(ref.file)) == vim.fn.resolve(path) then
      local node = tree.nodes[(ref.value % 65536) + 1]
      if node and node.notetracks then
        local r = client.request_sync("textDocument/hover", position(ref), 5000, buf)
        local text = r and r.result and r.result.contents and r.result.contents.value or ""
        local want = {}
        for _, n in ipairs(node.notetracks) do want[#want + 1] = string.format("`%s` (frame %d)", n.name, n.frame) end
        check(text:find("notetracks: " .. table.concat(want, ", "), 1, true),
          string.format("hover on %%%s at %d: '%s' lacks its notetracks %s", ref.name, ref.line, text, table.concat(want, ", ")))
      end
    end
  end
  -- LSP_NOTE_COMPLETE "LINE:COLUMN:a,b,c": completion inside a note string offers exactly those
  local spec = os.getenv("LSP_NOTE_COMPLETE") or ""
  local l, c, want = spec:match("^(%d+):(%d+):(.*)$")
  if l then
    local p = { textDocument = { uri = vim.uri_from_fname(path) },
                position = { line = tonumber(l) - 1, character = character(path, tonumber(l), tonumber(c)) } }
    local r = client.request_sync("textDocument/completion", p, 5000, buf)
    local items = r and r.result and (r.result.items or r.result) or {}
    local labels = {}
    for _, it in ipairs(items) do labels[#labels + 1] = it.label end
    check(table.concat(labels, ",") == want,
      string.format("notetrack completion at %s:%s: {%s}, want {%s}", l, c, table.concat(labels, ","), want))
  end
  -- completion just after the '%' of the first anim reference: the tree's names in tree order
  for _, ref in ipairs(doc.references) do
    if ref.kind == "anim" and ref.file ~= vim.NIL and vim.fn.resolve(abs(ref.file)) == vim.fn.resolve(path) and trees[ref.tree] then
      local p = position(ref)
      p.position.character = p.position.character + 1
      local r = client.request_sync("textDocument/completion", p, 5000, buf)
      local items = r and r.result and (r.result.items or r.result) or {}
      local labels = {}
      for _, it in ipairs(items) do labels[#labels + 1] = it.label:lower() end
      local at = 1
      for _, node in ipairs(trees[ref.tree].nodes) do
        if node.index > 0 and not node.pruned then
          local found = false
          while at <= #labels and not found do
            found = labels[at] == node.name:lower()
            at = at + 1
          end
          check(found, string.format("completion after %%: %s missing or out of tree order in {%s}", node.name, table.concat(labels, ",")))
        end
      end
      break
    end
  end
end

local function save() vim.cmd("silent write") end

-- What Neovim 0.7 asks of a function: the first function of the file, its
-- references (every call: each place names it), workspace symbols, signature
-- help at a call, and a rename applied by the client to every buffer and
-- undone by a second one (the diagnostics as before).
local function compare_functions(doc)
  local td = { uri = vim.uri_from_fname(path) }
  local r = client.request_sync("textDocument/documentSymbol", { textDocument = td }, 5000, buf)
  local fn = r and r.result and r.result[1]
  if not check(fn ~= nil, "no function in the opened file") then return end
  local at = { textDocument = td, position = fn.selectionRange.start }
  r = client.request_sync("textDocument/references",
    vim.tbl_extend("force", at, { context = { includeDeclaration = true } }), 5000, buf)
  local refs = r and r.result or {}
  check(#refs >= 1, "references of " .. fn.name .. ": none")
  local call
  for _, loc in ipairs(refs) do
    local text = read_lines(vim.uri_to_fname(loc.uri))[loc.range.start.line + 1] or ""
    local word = text:sub(loc.range.start.character + 1, loc.range["end"].character) -- ASCII names
    check(word:lower() == fn.name:lower(), string.format("a reference of %s names '%s'", fn.name, word))
    if loc.uri == td.uri and loc.range.start.line ~= fn.selectionRange.start.line then call = loc end
  end
  r = client.request_sync("workspace/symbol", { query = fn.name }, 5000, buf)
  local found = false
  for _, y in ipairs(r and r.result or {}) do found = found or y.name == fn.name end
  check(found, "workspace symbols: " .. fn.name .. " not found")
  if call then
    r = client.request_sync("textDocument/signatureHelp", { textDocument = td, position = {
      line = call.range.start.line, character = call.range["end"].character + 1 } }, 5000, buf)
    local sig = r and r.result and r.result.signatures and r.result.signatures[1]
    check(sig and sig.label:lower():sub(1, #fn.name + 1) == fn.name:lower() .. "(",
      "signature help at a call of " .. fn.name .. ": " .. vim.inspect(r and r.result))
  end
  local function rename(from, to)
    local a = client.request_sync("textDocument/rename", vim.tbl_extend("force", from, { newName = to }), 5000, buf)
    if not check(a and a.result and a.result.changes, "rename to " .. to .. ": " .. vim.inspect(a)) then return false end
    vim.lsp.util.apply_workspace_edit(a.result, client.offset_encoding)
    return true
  end
  local before = table.concat(vim.api.nvim_buf_get_lines(buf, 0, -1, false), "\n")
  if rename(at, fn.name .. "_renamed") then
    check(wait_version(), "no diagnostics after the rename")
    local now = table.concat(vim.api.nvim_buf_get_lines(buf, 0, -1, false), "\n")
    check(now:find(fn.name .. "_renamed(", 1, true) ~= nil, "the rename is not in the buffer")
    rename(at, fn.name)
    check(wait_version(), "no diagnostics after the rename back")
    check(table.concat(vim.api.nvim_buf_get_lines(buf, 0, -1, false), "\n") == before, "the rename back restores the text")
    compare_diagnostics(doc, "renamed back")
  end
end

-- 1. open: the diagnostics of every file, as the command line prints them
check(wait_version(), "no diagnostics published for " .. path .. " after open")
local doc = cli_json()
if doc then
  compare_diagnostics(doc, "open")
  compare_queries(doc)
  compare_functions(doc)
end

-- 2. an edit: a line with an unknown %name before the first reference; the
-- server publishes (for the buffer's version) what the command line says of
-- the file once saved
local first
if doc then
  for _, ref in ipairs(doc.references) do
    if ref.kind == "anim" and ref.file ~= vim.NIL and vim.fn.resolve(abs(ref.file)) == vim.fn.resolve(path) then first = ref break end
  end
end
if first then
  vim.api.nvim_buf_set_lines(buf, first.line - 1, first.line - 1, false, { "\tx = /* é😀 */ %atrc_lsp_typo;" })
  check(wait_version(), "no diagnostics after the edit")
  save()
  local edited = cli_json()
  if edited then
    compare_diagnostics(edited, "edit")
    local seen = false
    for _, g in ipairs(published[path].diagnostics) do
      seen = seen or (g.range.start.line == first.line - 1 and g.message:find("atrc_lsp_typo", 1, true) ~= nil)
    end
    check(seen, "the edit's error is not published on its line")
  end
  -- 3. undone: back to the first diagnostics (an emptied list where the file had only that one)
  vim.api.nvim_buf_set_lines(buf, first.line - 1, first.line, false, {})
  check(wait_version(), "no diagnostics after undoing the edit")
  save()
  local undone = cli_json()
  if undone then compare_diagnostics(undone, "undo") end
end

-- 4. shutdown and exit: status 0
client.stop()
check(vim.wait(10000, function() return exit_code ~= nil end, 10), "the server did not exit after shutdown")
check(exit_code == 0, "exit status " .. tostring(exit_code) .. " after shutdown and exit")
finish()
