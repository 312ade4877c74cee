-- The Strata language server for Neovim's own LSP client (0.11+): with this directory on
-- 'runtimepath', `vim.lsp.enable("strata")` starts it for Terraform and OpenTofu files,
-- with code lenses shown and refreshed by themselves, and run when clicked (strata.lenses),
-- and a border on the hover and signature-help floats (strata.floats).
local lenses = require("strata.lenses")
local floats = require("strata.floats")
return {
  cmd = { "strata", "serve" },
  filetypes = { "terraform", "terraform-vars", "opentofu" },
  root_markers = { ".terraform", ".git" },
  settings = { strata = {} },
  capabilities = lenses.capabilities,
  handlers = lenses.handlers,
  commands = lenses.commands,
  on_attach = { lenses.on_attach, floats.on_attach },
}
