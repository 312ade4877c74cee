-- :checkhealth strata — the binary, its version, the dialect, whether the server runs,
-- and where the schema of each provider came from (or why there is none).
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
  if opts.dialect then
    vim.health.ok("dialect: " .. opts.dialect .. " (setup's dialect)")
  else
    vim.health.ok("dialect: detected per module (OpenTofu where it has .tofu files, else Terraform)")
  end
  local clients = vim.lsp.get_clients({ name = "strata" })
  if #clients > 0 then
    vim.health.ok("server started (client id " .. clients[1].id .. ")")
    M.provider_schemas(clients[1])
  else
    vim.health.warn("server not started: open a .tf file in a workspace")
  end
end

--- The server's provider schema status: one line per provider of each root module.
function M.provider_schemas(client)
  vim.health.start("strata: provider schemas")
  local command = { command = "strata.providerSchemaStatus", arguments = {} }
  local answer = client:request_sync("workspace/executeCommand", command, 5000)
  local status = answer and answer.result
  if not status then
    vim.health.warn("no answer from the server: " .. vim.inspect(answer and answer.err))
    return
  end
  if status.loading then
    vim.health.info("loading…")
  end
  for _, err in ipairs(status.errors or {}) do
    vim.health.error(err)
  end
  if #(status.providers or {}) == 0 then
    vim.health.info(status.summary)
  end
  for i, provider in ipairs(status.providers or {}) do
    local line = status.lines[i] or provider.provider
    if provider.state.state == "loaded" then
      vim.health.ok(line)
    else
      vim.health.warn(line, { "Run terraform init, or set providerSchemas.files / run_plugins" })
    end
  end
end

return M
