-- Neovim 0.7 set up exactly as the README says (tests/lsp/run.sh extracts
-- the README's snippet and starts `nvim -u` on it, in the workspace, with
-- atrc on PATH), used through its keys as a user does: open a script, see
-- its diagnostics, `K` on a %name (the hover float shows its packed value),
-- `gd` (the .atr line that declares it), and CTRL-X CTRL-O after `%` and the
-- start of a name on an unfinished line (the name is in the popup menu).
-- Environment: ATRC (the binary, for the command line's view), LSP_OPEN (the
-- script, relative to the working directory), LSP_CLI_ARGS (a JSON array: the
-- command line of the same compilation).
local env = function(k) return os.getenv(k) or "" end
local here = debug.getinfo(1, "S").source:sub(2):match("(.*)/") or "."
local report = dofile(here .. "/nvim_report.lua")("neovim README setup")
local check, finish = report.check, report.finish

local cmd = vim.fn.shellescape(env("ATRC")) .. " --format json"
for _, a in ipairs(vim.fn.json_decode(env("LSP_CLI_ARGS"))) do cmd = cmd .. " " .. vim.fn.shellescape(a) end
local doc = vim.fn.json_decode(vim.fn.system(cmd .. " 2>/dev/null"))
local open = env("LSP_OPEN")

vim.cmd("edit " .. vim.fn.fnameescape(open))
local buf = vim.api.nvim_get_current_buf()
if not check(vim.wait(10000, function() return next(vim.lsp.buf_get_clients(buf)) ~= nil end, 10),
  "no language server attached to " .. open .. " (filetype '" .. vim.bo.filetype .. "')") then
  finish()
  return
end

-- diagnostics: as many as the command line has for the file, each on its line
local want = {}
for _, d in ipairs(doc.diagnostics) do
  if d.file == open then want[#want + 1] = d end
end
check(vim.wait(20000, function() return #vim.diagnostic.get(buf) == #want end, 10),
  string.format("%d diagnostics shown in %s, the command line has %d", #vim.diagnostic.get(buf), open, #want))
for _, d in ipairs(want) do
  local seen = false
  for _, g in ipairs(vim.diagnostic.get(buf)) do
    seen = seen or (g.lnum == d.line - 1 and g.message == d.message)
  end
  check(seen, string.format("%s:%d: '%s' not shown", open, d.line, d.message))
end

-- the first %name with a value: K, gd
local ref
for _, r in ipairs(doc.references) do
  if r.file == open and r.kind == "anim" and r.value ~= vim.NIL then ref = r break end
end
if not check(ref ~= nil, "the command line lists no %name with a value in " .. open) then finish() return end
local function floats()
  local t = {}
  for _, w in ipairs(vim.api.nvim_list_wins()) do
    if vim.api.nvim_win_get_config(w).relative ~= "" then t[#t + 1] = w end
  end
  return t
end
vim.api.nvim_win_set_cursor(0, { ref.line, ref.column }) -- on the name, just after '%'
vim.cmd("normal K")
local shown = ""
vim.wait(5000, function()
  local f = floats()[1]
  if f then shown = table.concat(vim.api.nvim_buf_get_lines(vim.api.nvim_win_get_buf(f), 0, -1, false), "\n") end
  return f ~= nil
end, 10)
check(shown:find(string.format("0x%08x", ref.value), 1, true) and shown:find(tostring(ref.value), 1, true),
  string.format("K on %%%s: the float shows '%s', not 0x%08x (%d)", ref.name, shown, ref.value, ref.value))
for _, f in ipairs(floats()) do vim.api.nvim_win_close(f, true) end

local tree_file
for _, t in ipairs(doc.trees) do
  if t.name == ref.tree then tree_file = vim.fn.resolve(vim.fn.fnamemodify(t.file, ":p")) end
end
vim.api.nvim_win_set_cursor(0, { ref.line, ref.column })
vim.cmd("normal gd")
vim.wait(5000, function() return vim.api.nvim_get_current_buf() ~= buf end, 10)
local landed = vim.fn.resolve(vim.api.nvim_buf_get_name(0))
local line_text = vim.api.nvim_get_current_line()
check(landed == tree_file and line_text:lower():match("^%s*" .. ref.name:lower() .. "%f[^%w_]") ~= nil,
  string.format("gd on %%%s: %s line '%s', want the line of %s that declares it", ref.name, landed, line_text,
    tostring(tree_file)))
vim.cmd("buffer " .. buf)

-- completion: a new unfinished line "x = %" and the start of the name, then
-- CTRL-X CTRL-O (the omnifunc on_attach set); the popup menu offers the name.
-- The keys are typed once this file has run (the main loop reads them), and
-- a timer looks at the menu from insert mode.
local typed = ref.name:sub(1, math.max(1, #ref.name - 3))
vim.api.nvim_win_set_cursor(0, { ref.line, 0 })
vim.api.nvim_feedkeys(vim.api.nvim_replace_termcodes("o\tx = %" .. typed .. "<C-x><C-o>", true, false, true), "t", false)
local started = vim.loop.now()
local timer = vim.loop.new_timer()
timer:start(20, 20, vim.schedule_wrap(function()
  local items = vim.fn.complete_info({ "items" }).items or {}
  if #items == 0 and vim.loop.now() - started < 5000 then return end
  timer:stop()
  local words = {}
  for _, it in ipairs(items) do words[#words + 1] = it.word end
  check(vim.tbl_contains(words, ref.name),
    string.format("CTRL-X CTRL-O after '%%%s' (mode %s): %s not offered (menu: %s)", typed, vim.fn.mode(), ref.name,
      table.concat(words, ",")))
  finish()
end))
