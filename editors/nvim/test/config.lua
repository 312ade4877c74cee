-- Checks, in a headless Neovim, the plugin's configuration without starting the server:
--   nvim --headless --clean -l editors/nvim/test/config.lua
-- lsp/strata.lua for `vim.lsp.enable("strata")`, the settings `setup` sends, and the
-- filetypes it detects.
local t = dofile(vim.fs.dirname(debug.getinfo(1, "S").source:sub(2)) .. "/harness.lua")
local check = t.check

-- lsp/strata.lua is found on 'runtimepath' by name.
local config = vim.lsp.config.strata
check(config and config.cmd[1] == "strata" and config.cmd[2] == "serve", "lsp/strata.lua: " .. vim.inspect(config))
check(vim.tbl_contains(config.filetypes, "opentofu"), "filetypes: " .. vim.inspect(config.filetypes))
check(config.on_attach and config.handlers["workspace/codeLens/refresh"]
  and config.capabilities.workspace.codeLens.refreshSupport, "code lenses wired: " .. vim.inspect(config))
check(vim.tbl_contains(config.on_attach, require("strata.floats").on_attach), "bordered floats wired")

local strata = require("strata")
check(vim.deep_equal(strata.settings({}), { strata = {} }), "no options, no settings")
check(vim.deep_equal(strata.settings({ dialect = "opentofu", state_path = "envs/prod.tfstate" }), {
  strata = { dialect = "opentofu", plan = { statePath = "envs/prod.tfstate" } },
}), "settings: " .. vim.inspect(strata.settings({ dialect = "opentofu", state_path = "envs/prod.tfstate" })))

strata.setup({ dialect = "opentofu" })
check(vim.lsp.config.strata.init_options.strata.dialect == "opentofu", "init_options carry the settings")
check(vim.filetype.match({ filename = "main.tofu" }) == "opentofu", ".tofu is opentofu")
check(vim.filetype.match({ filename = "main.tofu.json" }) == "json", ".tofu.json is json")
check(vim.filetype.match({ filename = "prod.tfvars" }) == "terraform-vars", ".tfvars is terraform-vars")
check(vim.fn.exists(":StrataPlan") == 2 and vim.fn.exists(":StrataEffective") == 2, "user commands")
check(vim.api.nvim_get_hl(0, { name = "@lsp.mod.overridden" }).link == "DiagnosticUnnecessary",
  "the overridden modifier is linked")
check(vim.api.nvim_get_hl(0, { name = "@lsp.type.namespace" }).link == "@module", "token types are linked")

-- A missing binary is said once, with the install command, when Terraform files open.
local said = {}
vim.notify = function(msg) table.insert(said, msg) end
strata.setup({ cmd = { "strata-not-installed-here", "serve" } })
vim.lsp.enable("strata", false)
vim.cmd("filetype on")
for _, name in ipairs({ "a.tf", "b.tf" }) do
  -- Neovim tells Terraform's .tf from TinyFugue's by the content.
  local path = vim.fn.tempname() .. name
  vim.fn.writefile({ 'resource "terraform_data" "a" {}' }, path)
  vim.cmd.edit(path)
end
check(#said == 1 and said[1]:find("strata-not-installed-here", 1, true)
  and said[1]:find("cargo install", 1, true), "missing binary said once: " .. vim.inspect(said))
t.ok("configuration")
os.exit(0)
