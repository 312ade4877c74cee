-- Hover and signature-help floats get a border, in a real headless Neovim:
--   nvim --headless --clean -l editors/nvim/test/floats.lua STRATA_BINARY DEMO_DIR
-- `K` and insert-mode `<C-S>` (Neovim's default keys) open bordered floats where Strata is
-- attached; 'winborder', once set, wins; `border = false` leaves Neovim's default; a
-- user's own mapping of those keys is kept; the mappings leave with the client.
local strata_bin, demo = arg[1], arg[2]
local t = dofile(vim.fs.dirname(debug.getinfo(1, "S").source:sub(2)) .. "/harness.lua")
local check, wait_for, ok = t.check, t.wait_for, t.ok

require("strata").setup({ cmd = { strata_bin, "serve" } })

--- The characters of each named border, as nvim_win_get_config gives them.
local borders = {
  rounded = { "╭", "─", "╮", "│", "╯", "─", "╰", "│" },
  single = { "┌", "─", "┐", "│", "┘", "─", "└", "│" },
}

--- The config of the float that typing `keys` opens, closed again afterwards.
local function float_of(keys)
  local before = {}
  for _, win in ipairs(vim.api.nvim_list_wins()) do
    before[win] = true
  end
  vim.api.nvim_feedkeys(vim.keycode(keys), "x", false)
  local float
  wait_for("a float after " .. keys, function()
    for _, win in ipairs(vim.api.nvim_list_wins()) do
      if not before[win] and vim.api.nvim_win_get_config(win).relative ~= "" then
        float = win
        return true
      end
    end
    return false
  end)
  local config = vim.api.nvim_win_get_config(float)
  vim.api.nvim_win_close(float, true)
  return config
end

-- 1. K on a resource: the hover float has the default rounded border.
local main_buf, client = t.open(demo .. "/main.tf")
check(vim.fn.maparg("K", "n", false, true).desc:find("Strata border", 1, true), "K is replaced")
t.cursor_at('"web"', 1)
local hover = float_of("K")
check(vim.deep_equal(hover.border, borders.rounded), "hover border: " .. vim.inspect(hover.border))
ok("hover float has a rounded border")

-- 2. Insert-mode <C-S> inside a function call: the signature help float has it too.
local line = vim.fn.search("name = ", "n")
vim.api.nvim_buf_set_lines(main_buf, line - 1, line, false, { '  name = upper("demo")' })
t.cursor_at('upper("', 6)
wait_for("the server to see the edit", function()
  local params = vim.lsp.util.make_position_params(0, client.offset_encoding)
  local answer = client:request_sync("textDocument/signatureHelp", params, 10000, main_buf)
  return answer ~= nil and answer.result ~= nil
end)
local help = float_of("i<C-S>")
vim.cmd.stopinsert()
check(vim.deep_equal(help.border, borders.rounded), "signature help border: " .. vim.inspect(help.border))
ok("signature help float has a rounded border")

-- 3. A 'winborder' the user set wins over the option; `border = false` draws none.
t.cursor_at('"web"', 1)
vim.o.winborder = "single"
check(vim.deep_equal(float_of("K").border, borders.single), "'winborder' wins")
vim.o.winborder = ""
require("strata").setup({ cmd = { strata_bin, "serve" }, border = false })
check(float_of("K").border == nil, "border = false: none")
require("strata").setup({ cmd = { strata_bin, "serve" } })
ok("'winborder' wins; border = false draws none")

-- 4. A user's own mappings (a buffer-local K from LspAttach, a global insert-mode <C-S>)
-- are kept; the select-mode default <C-S> is still replaced.
local mine = function() end
vim.keymap.set("i", "<C-S>", mine, { desc = "my signature help" })
vim.api.nvim_create_autocmd("LspAttach", {
  callback = function(event)
    vim.keymap.set("n", "K", mine, { buffer = event.buf, desc = "my hover" })
  end,
})
local other_buf = t.open(demo .. "/network/main.tf")
check(vim.fn.maparg("K", "n", false, true).desc == "my hover", "the user's K is kept")
check(vim.fn.maparg("<C-S>", "i", false, true).desc == "my signature help", "the user's <C-S> is kept")
check(vim.fn.maparg("<C-S>", "s", false, true).desc:find("Strata border", 1, true), "select-mode <C-S> replaced")
ok("the user's own mappings are kept")

-- 5. When the client stops, the buffer's bordered mappings go with it.
vim.lsp.stop_client(vim.lsp.get_clients({ name = "strata" }))
wait_for("the client to stop", function()
  return #vim.lsp.get_clients({ name = "strata" }) == 0
end)
for _, buf in ipairs({ main_buf, other_buf }) do
  vim.api.nvim_buf_call(buf, function()
    check(not (vim.fn.maparg("<C-S>", "s", false, true).desc or ""):find("Strata", 1, true),
      "select-mode <C-S> restored in buffer " .. buf)
  end)
end
vim.api.nvim_set_current_buf(main_buf)
check(not (vim.fn.maparg("K", "n", false, true).desc or ""):find("Strata", 1, true), "K removed")
ok("the mappings leave with the client")

os.exit(0)
