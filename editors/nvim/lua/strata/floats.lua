-- A border on the hover and signature-help floats of the buffers Strata serves. Neovim 0.11
-- draws those floats with 'winborder', empty (no border) unless the user sets it, and its
-- default `K` (buffer-local, set when a client attaches) and insert/select-mode `<C-S>`
-- (global) call vim.lsp.buf.hover() and vim.lsp.buf.signature_help() without one. Where
-- Strata attaches, those two defaults are replaced by buffer-local mappings that pass the
-- plugin's `border` option; a mapping of the user's own is left alone, and a 'winborder'
-- the user set wins over the option. lsp/strata.lua wires M.on_attach into the client.
local M = {}

--- The border when `setup` was not called (plain vim.lsp.enable) or given no `border`.
M.default_border = "rounded"

--- The border for a float of the plugin: nil (Neovim then uses 'winborder') when the user
--- set 'winborder' or the `border` option is false. Read when the float opens, so that a
--- later change of either is followed.
function M.border()
  if vim.o.winborder ~= "" then
    return nil
  end
  local options = require("strata").options
  local border = M.default_border
  if options ~= nil then
    border = options.border
  end
  return border or nil
end

--- A mapping of `lhs` in `mode` replacing Neovim's default one, which runs
--- vim.lsp.buf[`action`]() (its description says so), with vim.lsp.buf[`action`] given
--- the border. `desc` names the replacement, so that attaching again (a restarted server)
--- replaces it as well; `method` is what the client must support.
local function bordered(mode, lhs, action, method)
  return {
    mode = mode,
    lhs = lhs,
    default = ("vim.lsp.buf.%s()"):format(action),
    desc = ("vim.lsp.buf.%s() with the Strata border"):format(action),
    method = method,
    run = function()
      vim.lsp.buf[action]({ border = M.border() })
    end,
  }
end

--- The mappings replaced: `K`, and `<C-S>` in both modes Neovim maps it in.
M.mappings = {
  bordered("n", "K", "hover", "textDocument/hover"),
  bordered("i", "<C-S>", "signature_help", "textDocument/signatureHelp"),
  bordered("s", "<C-S>", "signature_help", "textDocument/signatureHelp"),
}

--- The description of what `lhs` runs in `mode` in `bufnr` (buffer-local first, then
--- global), or nil when it is unmapped or mapped without a description.
local function mapped_desc(bufnr, mode, lhs)
  return vim.api.nvim_buf_call(bufnr, function()
    return vim.fn.maparg(lhs, mode, false, true).desc
  end)
end

--- Replaces, in `bufnr`, Neovim's default hover and signature-help mappings with ones
--- that give the float a border, for the methods `client` supports.
function M.on_attach(client, bufnr)
  for _, map in ipairs(M.mappings) do
    local desc = mapped_desc(bufnr, map.mode, map.lhs)
    if (desc == map.default or desc == map.desc) and client:supports_method(map.method, bufnr) then
      vim.keymap.set(map.mode, map.lhs, map.run, { buffer = bufnr, desc = map.desc })
    end
  end
  vim.api.nvim_create_autocmd("LspDetach", {
    group = vim.api.nvim_create_augroup("strata.floats." .. bufnr, { clear = true }),
    buffer = bufnr,
    desc = "Strata: drop the bordered float mappings with the last client",
    callback = function(event)
      M.on_detach(event.data.client_id, bufnr)
    end,
  })
end

--- When the last client leaves `bufnr`, removes the mappings M.on_attach set, as Neovim
--- removes its own `K` then (its global `<C-S>` shows again). While another client
--- remains, they stay: they serve its floats as well.
function M.on_detach(client_id, bufnr)
  for _, client in ipairs(vim.lsp.get_clients({ bufnr = bufnr })) do
    if client.id ~= client_id then
      return
    end
  end
  for _, map in ipairs(M.mappings) do
    local local_map = vim.api.nvim_buf_call(bufnr, function()
      return vim.fn.maparg(map.lhs, map.mode, false, true)
    end)
    if local_map.buffer == 1 and local_map.desc == map.desc then
      vim.keymap.del(map.mode, map.lhs, { buffer = bufnr })
    end
  end
end

return M
