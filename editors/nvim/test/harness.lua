-- What the headless Neovim tests share: the plugin on 'runtimepath', failing with a
-- message (the test process exits non-zero), waiting for the server, and requests to it.
--   local t = dofile(vim.fs.dirname(debug.getinfo(1, "S").source:sub(2)) .. "/harness.lua")
local M = {}

--- The plugin's directory (editors/nvim), put first on 'runtimepath'.
M.plugin = vim.fs.dirname(vim.fs.dirname(debug.getinfo(1, "S").source:sub(2)))
vim.opt.runtimepath:prepend(M.plugin)

--- Ends the test with `msg` on stderr and a non-zero exit.
function M.fail(msg)
  io.stderr:write("FAIL: " .. msg .. "\n")
  os.exit(1)
end

--- Fails with `msg` unless `cond` holds.
function M.check(cond, msg)
  if not cond then
    M.fail(msg)
  end
end

--- Reports a passed step on stdout (tests/nvim.rs prints it).
function M.ok(msg)
  io.stdout:write("ok: " .. msg .. "\n")
end

--- Waits up to 20 s for `pred` to hold.
function M.wait_for(what, pred)
  if not vim.wait(20000, pred, 50) then
    M.fail("timed out waiting for " .. what)
  end
end

--- Opens `path` and waits for the Strata client to attach to it; returns the buffer and
--- the client.
function M.open(path)
  vim.cmd.edit(path)
  local buf = vim.api.nvim_get_current_buf()
  M.wait_for("the client to attach to " .. path, function()
    return #vim.lsp.get_clients({ bufnr = buf, name = "strata" }) > 0
  end)
  return buf, vim.lsp.get_clients({ bufnr = buf, name = "strata" })[1]
end

--- The result of `method` with `params` on `buf`, failing on an error or a timeout.
function M.request(client, method, params, buf)
  local answer, err = client:request_sync(method, params, 10000, buf)
  M.check(answer and not answer.err, method .. ": " .. vim.inspect(answer and answer.err or err))
  return answer.result
end

--- The text of `buf`, lines joined with "\n", with the final line break a file has.
function M.text(buf)
  return table.concat(vim.api.nvim_buf_get_lines(buf, 0, -1, false), "\n") .. "\n"
end

--- The contents of the file at `path`.
function M.read(path)
  local f = io.open(path, "rb")
  M.check(f, "open " .. path)
  local data = f:read("a")
  f:close()
  return data
end

--- Moves the cursor of the current window to the first match of the literal `text`,
--- `offset` characters into it; fails when it is absent.
function M.cursor_at(text, offset)
  local lines = vim.api.nvim_buf_get_lines(0, 0, -1, false)
  for i, line in ipairs(lines) do
    local col = line:find(text, 1, true)
    if col then
      vim.api.nvim_win_set_cursor(0, { i, col - 1 + (offset or 0) })
      return
    end
  end
  M.fail("no " .. text .. " in " .. vim.api.nvim_buf_get_name(0))
end

return M
