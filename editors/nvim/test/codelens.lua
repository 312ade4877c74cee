-- Code lenses appear without a manual refresh, in a real headless Neovim:
--   nvim --headless --clean -l editors/nvim/test/codelens.lua STRATA_BINARY WORKSPACE
-- WORKSPACE is a scratch copy of fixtures/demo (main.tf, override.tf and a prior state).
-- Nothing here calls vim.lsp.codelens.refresh: the plugin shows the lenses when the client
-- attaches, after a save, and when the server sends workspace/codeLens/refresh. Then each
-- part of a lens is clicked, and a plan with errors shows their source lines.
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

-- ---------------------------------------------------------------------------------------
-- Clicking each part of a lens (vim.lsp.codelens.run on its line; several lenses on one
-- line are offered with vim.ui.select, answered here by title).
-- ---------------------------------------------------------------------------------------

--- Runs the lens of the cursor's line whose title contains `title`.
local function run_lens(title)
  local offered = {}
  vim.ui.select = function(items, opts, on_choice)
    for _, item in ipairs(items) do
      local text = opts.format_item(item)
      offered[#offered + 1] = text
      if text:find(title, 1, true) then
        return on_choice(item)
      end
    end
    t.fail(("no lens %q among %s"):format(title, vim.inspect(offered)))
  end
  vim.lsp.codelens.run()
end

-- 4. The override is back (the buffer as on disk): both lenses on the web block again.
vim.api.nvim_buf_call(override_buf, function()
  vim.cmd("silent edit!")
end)
wait_lens(main_buf, 'resource "null_resource" "web"', "overridden by override.tf")
wait_lens(main_buf, 'resource "null_resource" "web"', "will be replaced")

-- 5. The planned action opens the plan with the cursor on that resource's change.
vim.api.nvim_win_set_cursor(0, { web, 0 })
run_lens("will be replaced")
wait_for("the plan at null_resource.web", function()
  return vim.api.nvim_buf_get_name(0) == "strata://plan"
    and vim.api.nvim_get_current_line() == "  # null_resource.web must be replaced"
end)
ok("the planned-action lens opens the plan at its resource: " .. vim.api.nvim_get_current_line())

-- 6. "overridden by override.tf" opens the override (the server's window/showDocument).
vim.cmd("close")
vim.api.nvim_set_current_buf(main_buf)
vim.api.nvim_win_set_cursor(0, { web, 0 })
run_lens("overridden by override.tf")
wait_for("override.tf shown at its web block", function()
  return vim.api.nvim_get_current_buf() == override_buf
    and vim.api.nvim_get_current_line():find('resource "null_resource" "web"', 1, true) == 1
end)
ok("the override lens opens the override: line " .. vim.api.nvim_win_get_cursor(0)[1])

-- 7. A plan with errors: the plan buffer shows each error with its source lines, as
-- `strata check` prints them.
vim.fn.mkdir(workspace .. "/broken", "p")
vim.fn.writefile({ 'resource "terraform_data" "a" {', "  input = var.missing", "}" }, workspace .. "/broken/main.tf")
t.open(workspace .. "/broken/main.tf")
vim.cmd("StrataPlan")
local snippet = { "Error: Reference to undeclared input variable", "", '  on main.tf line 2, in resource "terraform_data" "a":',
  "   2:   input = var.missing" }
wait_for("the plan's error with its source lines", function()
  local buf = vim.fn.bufnr("strata://plan")
  local text = buf ~= -1 and table.concat(vim.api.nvim_buf_get_lines(buf, 0, -1, false), "\n") or ""
  return text:find(table.concat(snippet, "\n"), 1, true) ~= nil
end)
ok("the plan buffer shows an error with its source lines")

-- 8. :checkhealth strata names the dialect.
vim.cmd("checkhealth strata")
local health = table.concat(vim.api.nvim_buf_get_lines(0, 0, -1, false), "\n")
check(health:find("dialect: detected per module", 1, true), "health: " .. health)
ok("checkhealth names the dialect")

os.exit(0)
