-- End-to-end test of the Neovim plugin in a real, headless Neovim:
--   nvim --headless --clean -l editors/nvim/test/e2e.lua STRATA_BINARY DEMO_DIR
-- Loads the plugin, opens the demo workspace and checks diagnostics, hover, :StrataPlan
-- and that an edit updates diagnostics. Exits non-zero with a message on the first failure.
local strata_bin, demo = arg[1], arg[2]
local t = dofile(vim.fs.dirname(debug.getinfo(1, "S").source:sub(2)) .. "/harness.lua")
local check, wait_for, ok = t.check, t.wait_for, t.ok

require("strata").setup({ cmd = { strata_bin, "serve" } })

-- 1. The diagnostic for a depends_on in an override, at its line.
vim.cmd.edit(demo .. "/network/override.tf")
local override_buf = vim.api.nvim_get_current_buf()
check(vim.bo.filetype == "terraform", "filetype terraform, got " .. vim.bo.filetype)
wait_for("the override diagnostic", function()
  return #vim.diagnostic.get(override_buf) > 0
end)
local d = vim.diagnostic.get(override_buf)[1]
check(d.message:find("depends_on argument may not be overridden", 1, true), "message: " .. d.message)
local expected_line = vim.fn.search("depends_on =", "n") - 1
check(d.lnum == expected_line, ("diagnostic on line %d, expected %d"):format(d.lnum, expected_line))
ok("diagnostic at line " .. (d.lnum + 1))

-- 2. Hover on an overridden base resource shows the overriding value.
local main_buf, client = t.open(demo .. "/main.tf")
vim.fn.search('resource "null_resource" "web"')
vim.cmd("normal! w")
local params = vim.lsp.util.make_position_params(0, client.offset_encoding)
local hover = client:request_sync("textDocument/hover", params, 10000, main_buf)
check(hover and hover.result, "hover answered: " .. vim.inspect(hover))
local shown = hover.result.contents.value
check(shown:find('version = "2"', 1, true), "hover shows the override's value: " .. shown)
check(not shown:find('version = "1"', 1, true), "hover hides the replaced value: " .. shown)
ok("hover shows the effective block")

-- 3. :StrataPlan fills a scratch buffer with the plan.
vim.cmd("StrataPlan")
wait_for("the plan buffer", function()
  local buf = vim.fn.bufnr("strata://plan")
  if buf == -1 then
    return false
  end
  local text = table.concat(vim.api.nvim_buf_get_lines(buf, 0, -1, false), "\n")
  return text:find("Plan:", 1, true) ~= nil
end)
local plan_buf = vim.fn.bufnr("strata://plan")
local plan = table.concat(vim.api.nvim_buf_get_lines(plan_buf, 0, -1, false), "\n")
check(plan:find("null_resource.web must be replaced", 1, true), "plan: " .. plan)
check(vim.fn.bufwinid(plan_buf) ~= -1, "the plan is shown in a window")
ok(plan:match("Plan:[^\n]*"))

-- 4. An edit in the buffer updates diagnostics: removing the depends_on clears the error.
vim.api.nvim_set_current_buf(override_buf)
local line = vim.fn.search("depends_on =", "n")
vim.api.nvim_buf_set_lines(override_buf, line - 1, line, false, { "" })
wait_for("the diagnostic to clear after the edit", function()
  return #vim.diagnostic.get(override_buf) == 0
end)
-- And typing it back raises it again.
vim.api.nvim_buf_set_lines(override_buf, line - 1, line, false, { "  depends_on = [terraform_data.vpc]" })
wait_for("the diagnostic to return after the edit", function()
  return #vim.diagnostic.get(override_buf) == 1
end)
ok("edits update diagnostics")

-- 5. :checkhealth strata finds the binary and the running server.
vim.cmd("checkhealth strata")
local health = table.concat(vim.api.nvim_buf_get_lines(0, 0, -1, false), "\n")
check(health:find("binary:", 1, true) and health:find("version: strata", 1, true), "health: " .. health)
check(health:find("server started", 1, true), "health: " .. health)
check(health:find("provider schemas", 1, true), "health: " .. health)
ok("checkhealth")

os.exit(0)
