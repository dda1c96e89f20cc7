-- The checks and the report of a Neovim client test run through `luafile`:
--   local t = dofile(<this file>)("neovim README setup")
--   t.check(cond, msg)   counts, and writes "FAIL lsp NAME: msg" when cond is false
--   t.finish()           writes "lsp NAME: N checks, M failed" and quits (status 1 on a failure)
return function(name)
  local t = { failures = 0, checks = 0 }
  function t.check(cond, msg)
    t.checks = t.checks + 1
    if not cond then
      t.failures = t.failures + 1
      io.stderr:write("FAIL lsp " .. name .. ": " .. msg .. "\n")
    end
    return cond
  end
  function t.finish()
    io.stderr:write(string.format("lsp %s: %d checks, %d failed\n", name, t.checks, t.failures))
    vim.cmd(t.failures == 0 and "qall!" or "cquit 1")
  end
  return t
end
