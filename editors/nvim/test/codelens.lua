-- Code lenses appear without a manual refresh, in a real headless Neovim:
--   nvim --headless --clean -l editors/nvim/test/codelens.lua STRATA_BINARY WORKSPACE
-- WORKSPACE is a scratch copy of fixtures/demo (main.tf, override.tf and a prior state).
-- Nothing here calls vim.lsp.codelens.refresh: the plugin shows the lenses when the client
-- attaches, after a save, and when the server sends workspace/codeLens/refresh.
local strata_bin, workspace = arg[1], arg[2]
local t = dofile(vim.fs.dirname(debug.getinfo(1, "S").source:sub(2)) .. "/harness.lua")
local check, wait_for, ok = t.check, t.wait_for, t.ok

require("strata").setup({ cmd = { strata_bin, "serve" } })

--- The lens texts drawn in `buf` (as virtual text), by 1-based line.
local function shown(buf)
  local out = {}
  for _, mark in ipairs(vim.api.nvim_buf_get_extmarks(buf, -1, 0, -1, { details = true })) do
    local text = {}
    for _, chunk in ipairs(mark[4].virt_text or {}) do
      text[#text + 1] = chunk[1]
    end
    if #text > 0 then
      out[mark[2] + 1] = (out[mark[2] + 1] or "") .. table.concat(text)
    end
  end
  return out
end

--- Waits until the line holding `anchor` in `buf` shows a lens containing `title`.
local function wait_lens(buf, anchor, title)
  local line = vim.fn.search(anchor, "nw")
  check(line > 0, "no " .. anchor)
  wait_for(("the lens %q on line %d"):format(title, line), function()
    local text = shown(buf)[line]
    return text ~= nil and text:find(title, 1, true) ~= nil
  end)
end

-- 1. On attach: the override lens and the planned action, with no refresh by the test.
local main_buf, client = t.open(workspace .. "/main.tf")
wait_lens(main_buf, 'resource "null_resource" "web"', "overridden by override.tf")
wait_lens(main_buf, 'resource "null_resource" "web"', "will be replaced")
ok("lenses appear when the client attaches: " .. shown(main_buf)[vim.fn.search('"web"', "nw")])

-- 2. On save: a new resource gets its planned action once the file is written.
local last = vim.api.nvim_buf_line_count(main_buf)
vim.api.nvim_buf_set_lines(main_buf, last, last, false, { "", 'resource "terraform_data" "added" {}' })
vim.cmd("silent write")
wait_lens(main_buf, 'resource "terraform_data" "added"', "will be created")
ok("a save refreshes the lenses")

-- 3. On the server's workspace/codeLens/refresh: removing the override from the (unsaved)
-- override buffer changes the lenses of main.tf, another open document of the module; the
-- server asks the client to refresh them, and the plugin's handler does, with no save and
-- no call here.
local handler = client.handlers["workspace/codeLens/refresh"]
check(handler ~= nil, "the plugin handles workspace/codeLens/refresh")
check(client.capabilities.workspace.codeLens.refreshSupport == true, "refreshSupport is announced")
local override_buf = t.open(workspace .. "/override.tf")
local first = vim.fn.search('resource "null_resource" "web"', "nw")
vim.api.nvim_buf_set_lines(override_buf, first - 1, -1, false, {})
vim.api.nvim_set_current_buf(main_buf)
local web = vim.fn.search('resource "null_resource" "web"', "nw")
wait_for("the override lens to go after the server's refresh request", function()
  local text = shown(main_buf)[web]
  return text == nil or text:find("overridden by", 1, true) == nil
end)
ok("workspace/codeLens/refresh from the server refreshes the lenses")

os.exit(0)
