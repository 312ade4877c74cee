-- Strata for Neovim 0.11+: registers the language server with vim.lsp.config/enable,
-- detects OpenTofu files, and adds :StrataPlan and :StrataEffective.
local floats = require("strata.floats")
local M = {}

--- Options `setup` accepts; every key is optional.
--- cmd: how to start the server (default { "strata", "serve" });
--- dialect: "terraform" or "opentofu" (default: detected from .tofu files);
--- state_path: the prior state of each module, relative to it (default terraform.tfstate);
--- schema_files: provider schema files (`terraform providers schema -json`) to use first;
--- run_plugins: false never starts provider binaries found inside the workspace;
--- filetypes, root_markers: as vim.lsp.config takes them;
--- border: the border of the hover, signature-help and plugin floats when 'winborder' is
--- empty, as nvim_open_win takes it (default "rounded"; false: none, as Neovim draws them).
M.defaults = {
  cmd = { "strata", "serve" },
  filetypes = { "terraform", "terraform-vars", "opentofu" },
  root_markers = { ".terraform", ".git" },
  dialect = nil,
  state_path = nil,
  schema_files = nil,
  run_plugins = nil,
  border = floats.default_border,
}

--- The server settings for `opts`, sent as initializationOptions and on change through
--- workspace/didChangeConfiguration (the shape the server reads: { strata = {...} }).
function M.settings(opts)
  local strata = {}
  if opts.dialect then
    strata.dialect = opts.dialect
  end
  if opts.state_path then
    strata.plan = { statePath = opts.state_path }
  end
  if opts.schema_files or opts.run_plugins == false then
    strata.providerSchemas = { files = opts.schema_files or {}, runPlugins = opts.run_plugins ~= false }
  end
  return { strata = strata }
end

--- The running Strata client of `bufnr`, or nil with a message.
local function client_of(bufnr)
  local client = vim.lsp.get_clients({ bufnr = bufnr, name = "strata" })[1]
  if not client then
    vim.notify("Strata is not running for this buffer", vim.log.levels.WARN)
  end
  return client
end

--- Runs a server command with one argument object; calls `done(result)` on success.
local function run_command(bufnr, command, argument, done)
  local client = client_of(bufnr)
  if not client then
    return
  end
  client:request("workspace/executeCommand", { command = command, arguments = { argument } },
    function(err, result)
      if err then
        vim.notify("Strata: " .. (err.message or tostring(err)), vim.log.levels.ERROR)
        return
      end
      done(result)
    end, bufnr)
end

--- Shows `lines` in a read-only scratch buffer named `name`, in a split (reused when
--- it is already open).
local function show_scratch(name, lines, filetype)
  local buf = vim.fn.bufnr(name)
  if buf == -1 then
    buf = vim.api.nvim_create_buf(false, true)
    vim.api.nvim_buf_set_name(buf, name)
    vim.bo[buf].bufhidden = "hide"
    vim.bo[buf].swapfile = false
  end
  vim.bo[buf].modifiable = true
  vim.api.nvim_buf_set_lines(buf, 0, -1, false, lines)
  vim.bo[buf].modifiable = false
  vim.bo[buf].filetype = filetype
  if vim.fn.bufwinid(buf) == -1 then
    vim.cmd("botright split")
    vim.api.nvim_win_set_buf(0, buf)
  end
  return buf
end

--- The line (from 0) of the plan's text that opens the change of `address`, if shown.
local function change_line(result, address)
  for i, change in ipairs(result.resource_changes or {}) do
    local place = (result.places or {})[i]
    if change.address == address and place and place.rendered_line then
      return place.rendered_line
    end
  end
end

--- :StrataPlan — the rendered plan of the current buffer's module in a scratch split
--- (errors with their source lines, as `strata check` prints them); with `address`, the
--- cursor on that resource's change, at the top of the window (the planned-action lens).
function M.plan(bufnr, address)
  bufnr = bufnr or vim.api.nvim_get_current_buf()
  run_command(bufnr, "strata.planPreview", { uri = vim.uri_from_bufnr(bufnr) }, function(result)
    local text = result and result.rendered or "No plan."
    local buf = show_scratch("strata://plan", vim.split(text, "\n", { plain = true }), "strataplan")
    local line = address and result and change_line(result, address)
    if line then
      local win = vim.fn.bufwinid(buf)
      vim.api.nvim_set_current_win(win)
      vim.api.nvim_win_set_cursor(win, { line + 1, 0 })
      vim.cmd("normal! zt")
    end
  end)
end

--- :StrataEffective — the effective (merged) block under the cursor in a float.
function M.effective(bufnr)
  bufnr = bufnr or vim.api.nvim_get_current_buf()
  local client = client_of(bufnr)
  if not client then
    return
  end
  local params = vim.lsp.util.make_position_params(0, client.offset_encoding)
  run_command(bufnr, "strata.mergedBlock", { uri = params.textDocument.uri, position = params.position },
    function(result)
      if result == vim.NIL or not result then
        vim.notify("Strata: no block here", vim.log.levels.INFO)
        return
      end
      local lines = vim.split(result.text, "\n", { plain = true })
      vim.lsp.util.open_floating_preview(lines, "terraform", {
        border = floats.border(),
        focus_id = "strata-effective",
      })
    end)
end

--- The highlight group each semantic token type and modifier of the server's legend is
--- linked to (`default`, so a colour scheme's own links win). "overridden" marks what an
--- override file replaces: shown dimmed, as unused code is.
M.highlights = {
  ["@lsp.type.namespace"] = "@module",
  ["@lsp.type.type"] = "@type",
  ["@lsp.type.class"] = "@type",
  ["@lsp.type.parameter"] = "@variable.parameter",
  ["@lsp.type.variable"] = "@variable",
  ["@lsp.type.property"] = "@property",
  ["@lsp.type.function"] = "@function",
  ["@lsp.type.keyword"] = "@keyword",
  ["@lsp.type.string"] = "@string",
  ["@lsp.type.number"] = "@number",
  ["@lsp.type.operator"] = "@operator",
  ["@lsp.type.comment"] = "@comment",
  ["@lsp.mod.readonly"] = "@constant",
  ["@lsp.mod.deprecated"] = "DiagnosticDeprecated",
  ["@lsp.mod.overridden"] = "DiagnosticUnnecessary",
}

--- The command that installs the server, said when it is missing.
M.install_command = "cargo install --locked --path server  (in a clone of Strata)"

--- Says once, when the first Terraform file opens, that the server's binary is missing.
local function report_missing_binary(opts)
  local reported = false
  vim.api.nvim_create_autocmd("FileType", {
    pattern = opts.filetypes,
    group = vim.api.nvim_create_augroup("strata-missing-binary", { clear = true }),
    callback = function()
      if reported or vim.fn.executable(opts.cmd[1]) == 1 then
        return
      end
      reported = true
      vim.notify(
        ("Strata: the server `%s` is not on PATH; install it with: %s"):format(opts.cmd[1], M.install_command),
        vim.log.levels.WARN
      )
    end,
  })
end

--- Registers the server and the commands; `opts` as `M.defaults` describes.
function M.setup(opts)
  opts = vim.tbl_deep_extend("force", M.defaults, opts or {})
  vim.filetype.add({
    extension = { tofu = "opentofu", tfvars = "terraform-vars" },
    pattern = { [".*%.tofu%.json"] = "json" },
  })
  local settings = M.settings(opts)
  vim.lsp.config("strata", {
    cmd = opts.cmd,
    filetypes = opts.filetypes,
    root_markers = opts.root_markers,
    init_options = settings,
    settings = settings,
  })
  vim.lsp.enable("strata")
  for group, target in pairs(M.highlights) do
    vim.api.nvim_set_hl(0, group, { link = target, default = true })
  end
  report_missing_binary(opts)
  vim.api.nvim_create_user_command("StrataPlan", function()
    M.plan()
  end, { desc = "Strata: preview the plan of this module" })
  vim.api.nvim_create_user_command("StrataEffective", function()
    M.effective()
  end, { desc = "Strata: show the effective block under the cursor" })
  M.options = opts
end

return M
