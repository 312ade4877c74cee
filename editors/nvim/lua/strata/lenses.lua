-- Code lenses ("overridden by override.tf", a resource's planned action) and inlay hints
-- shown without the user asking: Neovim 0.11 only draws lenses when something calls
-- vim.lsp.codelens.refresh, and has no handler for the server's
-- workspace/codeLens/refresh request. lsp/strata.lua wires these into the client.
local M = {}

--- Asks again for the lenses of every loaded buffer `client` serves: saving an override
--- file changes the lenses of its base file, and a new prior state those of every file.
function M.refresh(client)
  for _, buf in ipairs(vim.lsp.get_buffers_by_client_id(client.id)) do
    if vim.api.nvim_buf_is_loaded(buf) then
      vim.lsp.codelens.refresh({ bufnr = buf })
    end
  end
end

--- The client capability that lets the server ask for a refresh.
M.capabilities = { workspace = { codeLens = { refreshSupport = true } } }

--- The handler of the server's workspace/codeLens/refresh request.
M.handlers = {
  ["workspace/codeLens/refresh"] = function(_, _, ctx)
    local client = vim.lsp.get_client_by_id(ctx.client_id)
    if client then
      M.refresh(client)
    end
    return vim.NIL
  end,
}

--- The lenses' commands Neovim runs itself (client-side, before asking the server): a
--- resource's planned action opens the plan at that resource. ("overridden by …" is the
--- server's strata.showOverride, which shows the override through window/showDocument.)
M.commands = {
  ["strata.showPlannedChange"] = function(command, ctx)
    local argument = (command.arguments or {})[1] or {}
    require("strata").plan(ctx.bufnr, argument.address)
  end,
}

--- Shows the lenses of `bufnr` now and after each save (of any buffer of the client), and
--- turns inlay hints on where the server offers them.
function M.on_attach(client, bufnr)
  vim.lsp.codelens.refresh({ bufnr = bufnr })
  local group = vim.api.nvim_create_augroup("strata.lenses." .. bufnr, { clear = true })
  vim.api.nvim_create_autocmd("BufWritePost", {
    group = group,
    buffer = bufnr,
    desc = "Strata: refresh code lenses after a save",
    callback = function()
      M.refresh(client)
    end,
  })
  if client:supports_method("textDocument/inlayHint", bufnr) then
    vim.lsp.inlay_hint.enable(true, { bufnr = bufnr })
  end
end

return M
