-- Everyday editing through Neovim's own LSP commands, in a real headless Neovim:
--   nvim --headless --clean -l editors/nvim/test/editing.lua STRATA_BINARY WORKSPACE EXPECTED_FMT
-- WORKSPACE is a scratch copy of fixtures/demo (main.tf and its override.tf) with
-- format/main.tf, the input of fixtures/fmt/editors; EXPECTED_FMT is what `terraform fmt`
-- made of it. Checks the outline (vim.lsp.buf.document_symbol), Format Document
-- (vim.lsp.buf.format) and rename with its `moved` block (vim.lsp.buf.rename).
local strata_bin, workspace, expected_fmt = arg[1], arg[2], arg[3]
local t = dofile(vim.fs.dirname(debug.getinfo(1, "S").source:sub(2)) .. "/harness.lua")
local check, wait_for, ok = t.check, t.wait_for, t.ok

require("strata").setup({ cmd = { strata_bin, "serve" } })

--- The outline of the current buffer as vim.lsp.buf.document_symbol lists it: "[Kind] name"
--- per symbol, nested ones after their parent.
local function outline_items()
  local items
  vim.lsp.buf.document_symbol({
    on_list = function(list)
      items = list.items
    end,
  })
  wait_for("the outline", function()
    return items ~= nil
  end)
  return vim.tbl_map(function(item)
    return ("%d %s"):format(item.lnum, item.text)
  end, items)
end

-- 1. Outline: the override file's blocks named as Terraform names them, each marked as
-- the override of the block it changes; the base file names every kind of block.
local override_buf, client = t.open(workspace .. "/override.tf")
local items = outline_items()
local want = {
  "3 [Variable] var.replicas",
  "4 [Property] default",
  "7 [Class] null_resource.web",
  "8 [Property] triggers",
}
check(vim.deep_equal(items, want), "override.tf outline: " .. vim.inspect(items))
local symbols = t.request(client, "textDocument/documentSymbol",
  { textDocument = vim.lsp.util.make_text_document_params(override_buf) }, override_buf)
local details = vim.tbl_map(function(s)
  return s.name .. ": " .. tostring(s.detail)
end, symbols)
check(vim.deep_equal(details, {
  "var.replicas: override of main.tf",
  "null_resource.web: override of main.tf",
}), "override details: " .. vim.inspect(details))
ok("the outline names the override blocks and marks them as overrides of main.tf")

local main_buf = t.open(workspace .. "/main.tf")
items = outline_items()
for _, name in ipairs({ "var.environment", "local.name", "terraform_data.app", "null_resource.web", "output.name" }) do
  check(vim.iter(items):any(function(item)
    return item:find(" " .. name, 1, true) ~= nil
  end), name .. " in the main.tf outline: " .. vim.inspect(items))
end
ok("the outline of main.tf names var., local., resources and output.")

-- 2. Format Document makes exactly what `terraform fmt` made, and saving writes it.
local fmt_path = workspace .. "/format/main.tf"
local fmt_buf = t.open(fmt_path)
local before = t.text(fmt_buf)
local expected = t.read(expected_fmt)
check(before ~= expected, "the input is not formatted yet")
vim.lsp.buf.format({ bufnr = fmt_buf, name = "strata", timeout_ms = 10000 })
check(t.text(fmt_buf) == expected, "formatted:\n" .. t.text(fmt_buf) .. "\nexpected:\n" .. expected)
vim.cmd("silent write")
check(t.read(fmt_path) == expected, "the saved file is what terraform fmt made")
ok("Format Document makes what terraform fmt makes")

-- 3. Rename null_resource.web in main.tf: the base and the override block both change,
-- and a moved block records the old address.
vim.api.nvim_set_current_buf(main_buf)
local main_before, override_before = t.text(main_buf), t.text(override_buf)
t.cursor_at('"web"', 1)
vim.lsp.buf.rename("frontend", { name = "strata" })
wait_for("the rename edits", function()
  return t.text(main_buf) ~= main_before and t.text(override_buf) ~= override_before
end)
local moved = "\nmoved {\n  from = null_resource.web\n  to   = null_resource.frontend\n}\n"
local main_want = main_before:gsub('"null_resource" "web"', '"null_resource" "frontend"') .. moved
check(t.text(main_buf) == main_want, "main.tf after the rename:\n" .. vim.inspect(t.text(main_buf)) .. "\nexpected\n" .. vim.inspect(main_want))
local override_want = override_before:gsub('"null_resource" "web"', '"null_resource" "frontend"')
check(t.text(override_buf) == override_want, "override.tf after the rename:\n" .. t.text(override_buf))
vim.cmd("silent wall")
check(t.read(workspace .. "/main.tf") == main_want, "main.tf saved as shown")
check(t.read(workspace .. "/override.tf") == override_want, "override.tf saved as shown")
ok("rename changes the base and the override and adds the moved block")

os.exit(0)
