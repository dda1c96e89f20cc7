-- Neovim set up exactly as the README says runs one server for every buffer:
-- here two projects (each its own atrc.flags, profile and tree) and a file
-- outside both, opened in one session (tests/lsp/run.sh builds them and
-- starts `nvim -u` on the README's snippet in their parent directory).  Each
-- buffer's diagnostics and hover values are its own project's, as the
-- command line says of that project; wiping out a project's buffer drops
-- the project (the server's window/logMessage), and the others still answer.
-- Environment: ATRC (the binary), LSP_CASES (a JSON array of {open, cli}: a
-- script relative to the working directory and the command line of its
-- project's compilation, run there).
local env = function(k) return os.getenv(k) or "" end
local here = debug.getinfo(1, "S").source:sub(2):match("(.*)/") or "."
local report = dofile(here .. "/nvim_report.lua")("neovim projects")
local check, finish = report.check, report.finish

-- the server's log, seen before the README's client starts
local logged = {}
local log_handler = vim.lsp.handlers["window/logMessage"]
vim.lsp.handlers["window/logMessage"] = function(err, result, ctx, config)
  logged[#logged + 1] = result.message
  return log_handler(err, result, ctx, config)
end

local function cli_json(args)
  local cmd = vim.fn.shellescape(env("ATRC")) .. " --format json"
  for _, a in ipairs(args) do cmd = cmd .. " " .. vim.fn.shellescape(a) end
  return vim.fn.json_decode(vim.fn.system(cmd .. " 2>/dev/null"))
end

local cases = vim.fn.json_decode(env("LSP_CASES"))
local bufs, client
for i, c in ipairs(cases) do
  vim.cmd("edit " .. vim.fn.fnameescape(c.open))
  local buf = vim.api.nvim_get_current_buf()
  if not check(vim.wait(10000, function() return next(vim.lsp.buf_get_clients(buf)) ~= nil end, 10),
    "no language server attached to " .. c.open) then
    finish()
    return
  end
  local id = next(vim.lsp.buf_get_clients(buf))
  check(client == nil or id == client, c.open .. ": a second client, not the one server")
  client = id
  bufs = bufs or {}
  bufs[i] = buf
end
check(#vim.lsp.get_active_clients() == 1, #vim.lsp.get_active_clients() .. " clients running, not one")

-- A %name's hover in buf, at the command line's place of it.
local function hover(buf, ref)
  local got = vim.lsp.buf_request_sync(buf, "textDocument/hover", {
    textDocument = { uri = vim.uri_from_bufnr(buf) },
    position = { line = ref.line - 1, character = ref.column },
  }, 10000)
  for _, r in pairs(got or {}) do
    if r.result and r.result.contents then return r.result.contents.value or "" end
  end
  return ""
end

local first_ref = {}
for i, c in ipairs(cases) do
  local doc = cli_json(c.cli)
  local want = {}
  for _, d in ipairs(doc.diagnostics) do
    if d.file == c.open then want[#want + 1] = d end
  end
  check(vim.wait(20000, function() return #vim.diagnostic.get(bufs[i]) == #want end, 10),
    string.format("%s: %d diagnostics shown, its project's command line has %d", c.open,
      #vim.diagnostic.get(bufs[i]), #want))
  for _, d in ipairs(want) do
    local seen = false
    for _, g in ipairs(vim.diagnostic.get(bufs[i])) do seen = seen or (g.lnum == d.line - 1 and g.message == d.message) end
    check(seen, string.format("%s:%d: '%s' not shown", c.open, d.line, d.message))
  end
  for _, r in ipairs(doc.references) do
    if r.file == c.open and r.kind == "anim" and r.value ~= vim.NIL then
      first_ref[i] = first_ref[i] or r
      local shown = hover(bufs[i], r)
      check(shown:find(string.format("0x%08x", r.value), 1, true) ~= nil,
        string.format("%s: hover on %%%s shows '%s', its project packs it 0x%08x", c.open, r.name, shown, r.value))
    end
  end
end
-- the same %name packs differently in each project
if check(first_ref[1] and first_ref[2], "no %name with a value in the first two projects") then
  check(first_ref[1].value ~= first_ref[2].value, "the test's projects pack their %name the same")
end

-- the first project's only buffer wiped out: the project is dropped, the second still answers
vim.cmd("bwipeout! " .. bufs[1])
check(vim.wait(10000, function()
  for _, m in ipairs(logged) do
    if m:find("dropped", 1, true) then return true end
  end
  return false
end, 10), "wiping out the first project's buffer: no 'dropped' in the server's log: " .. table.concat(logged, " | "))
if first_ref[2] then
  check(hover(bufs[2], first_ref[2]):find(string.format("0x%08x", first_ref[2].value), 1, true) ~= nil,
    "after the first project is dropped the second still answers")
end
finish()
