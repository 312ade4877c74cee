-- Completion, a quick fix and inlay hints through Neovim's own LSP client, in a real
-- headless Neovim:
--   nvim --headless --clean -l editors/nvim/test/everyday.lua STRATA_BINARY WORKSPACE
-- WORKSPACE is a scratch copy of fixtures/demo (main.tf, its override.tf and prior state).
-- Completion after `var.` shows the module's variables in the popup menu and accepting
-- one writes it (vim.lsp.completion); a quick fix for a misspelt argument is applied
-- (vim.lsp.buf.code_action); inlay hints show the effective value an override gives
-- (vim.lsp.inlay_hint).
local strata_bin, workspace = arg[1], arg[2]
local t = dofile(vim.fs.dirname(debug.getinfo(1, "S").source:sub(2)) .. "/harness.lua")
local check, wait_for, ok = t.check, t.wait_for, t.ok

require("strata").setup({ cmd = { strata_bin, "serve" } })

local main_buf, client = t.open(workspace .. "/main.tf")
local keys = function(k)
  return vim.api.nvim_replace_termcodes(k, true, false, true)
end

-- 1. Completion after `var.`: the popup lists the variables; accepting one writes it.
local before = t.text(main_buf)
local last = vim.api.nvim_buf_line_count(main_buf)
vim.api.nvim_buf_set_lines(main_buf, last, last, false, { "", 'output "size" {', "  value = var.", "}" })
vim.lsp.completion.enable(true, client.id, main_buf)
t.cursor_at("value = var.", #"value = var.")
-- Insert mode after `var.`, one run of keys: Neovim reads no more (stdin is closed), so
-- the steps in Insert mode are <Cmd> calls: ask for completion, wait for the menu's
-- items, select "replicas" and accept it; then leave Insert mode.
local words = {}
_G.strata_test_accept = function()
  vim.lsp.completion.get()
  vim.wait(20000, function()
    return #vim.fn.complete_info({ "items" }).items > 0
  end, 50)
  words = vim.tbl_map(function(item)
    return item.word
  end, vim.fn.complete_info({ "items" }).items)
  for i, word in ipairs(words) do
    if word == "replicas" then
      vim.api.nvim_select_popupmenu_item(i - 1, true, true, {})
    end
  end
end
vim.api.nvim_feedkeys(keys("a<Cmd>lua _G.strata_test_accept()<CR><Esc>"), "x", false)
check(vim.tbl_contains(words, "replicas") and vim.tbl_contains(words, "environment"),
  "the menu after var.: " .. vim.inspect(words))
wait_for("the accepted item", function()
  return vim.api.nvim_buf_get_lines(main_buf, last + 2, last + 3, false)[1] == "  value = var.replicas"
end)
check(t.text(main_buf) == before .. '\noutput "size" {\n  value = var.replicas\n}\n',
  "main.tf after completion:\n" .. t.text(main_buf))
ok("completion after var. lists the variables, and the accepted one is written")

-- 2. A quick fix: a misspelt argument is reported with Terraform's "Did you mean", and
-- its fix writes the name it suggests.
t.cursor_at("  input = {", 0)
local row = vim.api.nvim_win_get_cursor(0)[1]
vim.api.nvim_buf_set_lines(main_buf, row - 1, row, false, { "  inputs = {" })
wait_for("the Unsupported argument diagnostic", function()
  return vim.iter(vim.diagnostic.get(main_buf)):any(function(d)
    return d.message:find('Did you mean "input"', 1, true) ~= nil
  end)
end)
t.cursor_at("inputs", 2)
vim.lsp.buf.code_action({
  apply = true,
  filter = function(action)
    return action.title == 'Change "inputs" to "input"'
  end,
})
wait_for("the quick fix's edit", function()
  return vim.api.nvim_buf_get_lines(main_buf, row - 1, row, false)[1] == "  input = {"
end)
wait_for("the diagnostic to go", function()
  return #vim.diagnostic.get(main_buf, { severity = vim.diagnostic.severity.ERROR }) == 0
end)
ok("a quick fix writes the argument Terraform suggests, and the error goes")

-- 3. Inlay hints: after `default = 1` of var.replicas, the value override.tf gives it.
vim.lsp.inlay_hint.enable(true, { bufnr = main_buf })
local labels
wait_for("the inlay hints", function()
  labels = vim.tbl_map(function(h)
    local label = h.inlay_hint.label
    if type(label) == "table" then
      label = table.concat(vim.tbl_map(function(part)
        return part.value
      end, label))
    end
    return label
  end, vim.lsp.inlay_hint.get({ bufnr = main_buf }))
  return vim.iter(labels):any(function(l)
    return l:find("(override.tf)", 1, true) ~= nil
  end)
end)
check(vim.tbl_contains(labels, "← 3 (override.tf)"), "inlay hints: " .. vim.inspect(labels))
ok("inlay hints show the value override.tf gives var.replicas")

os.exit(0)
