-- :checkhealth strata — the binary, its version, and whether the server runs.
local M = {}

function M.check()
  vim.health.start("strata")
  local opts = (require("strata").options or require("strata").defaults)
  local exe = opts.cmd[1]
  if vim.fn.executable(exe) ~= 1 then
    vim.health.error(exe .. " not found on PATH", {
      "Install it: cargo install --locked --path server (from a Strata clone)",
    })
    return
  end
  vim.health.ok("binary: " .. vim.fn.exepath(exe))
  local version = vim.system({ exe, "--version" }, { text = true }):wait()
  if version.code == 0 then
    vim.health.ok("version: " .. vim.trim(version.stdout))
  else
    vim.health.error("`" .. exe .. " --version` failed: " .. vim.trim(version.stderr or ""))
  end
  local clients = vim.lsp.get_clients({ name = "strata" })
  if #clients > 0 then
    vim.health.ok("server started (client id " .. clients[1].id .. ")")
  else
    vim.health.warn("server not started: open a .tf file in a workspace")
  end
end

return M
