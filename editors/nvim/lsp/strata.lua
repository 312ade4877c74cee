-- The Strata language server for Neovim's own LSP client (0.11+): with this directory on
-- 'runtimepath', `vim.lsp.enable("strata")` starts it for Terraform and OpenTofu files.
return {
  cmd = { "strata", "serve" },
  filetypes = { "terraform", "terraform-vars", "opentofu" },
  root_markers = { ".terraform", ".git" },
  settings = { strata = {} },
}
