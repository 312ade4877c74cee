#!/usr/bin/env bash
# Packages the platform-specific extension: a `.vsix` for one VS Code target that carries
# the strata binary in server/, which the extension starts when neither
# strata.server.path nor PATH names one.
#   editors/vscode/scripts/package-target.sh RUST_TARGET_TRIPLE [STRATA_BINARY]
# Without STRATA_BINARY the release binary is built for the triple (stripped; its rustup
# target must be installed). Writes editors/vscode/strata-<vscode-target>.vsix and prints
# its path. A release package over 15 MB fails.
set -euo pipefail
triple="${1:?usage: package-target.sh RUST_TARGET_TRIPLE [STRATA_BINARY]}"
binary="${2:-}"
ext="$(cd "$(dirname "$0")/.." && pwd)"
repo="$(cd "$ext/../.." && pwd)"

# The VS Code target of each Rust target triple (vsce package --target).
case "$triple" in
  x86_64-unknown-linux-gnu) target=linux-x64 ;;
  aarch64-unknown-linux-gnu) target=linux-arm64 ;;
  armv7-unknown-linux-gnueabihf) target=linux-armhf ;;
  x86_64-unknown-linux-musl) target=alpine-x64 ;;
  aarch64-unknown-linux-musl) target=alpine-arm64 ;;
  x86_64-apple-darwin) target=darwin-x64 ;;
  aarch64-apple-darwin) target=darwin-arm64 ;;
  x86_64-pc-windows-msvc) target=win32-x64 ;;
  aarch64-pc-windows-msvc) target=win32-arm64 ;;
  *) echo "package-target.sh: no VS Code target for $triple" >&2; exit 2 ;;
esac
exe=strata
case "$triple" in *-windows-*) exe=strata.exe ;; esac

if [ -z "$binary" ]; then
  # Stripped and without debug info: the package stays small.
  (cd "$repo" && CARGO_PROFILE_RELEASE_STRIP=symbols CARGO_PROFILE_RELEASE_DEBUG=false \
    cargo build --release --locked --target "$triple" -p strata)
  binary="${CARGO_TARGET_DIR:-$repo/target}/$triple/release/$exe"
  limit=$((15 * 1024 * 1024))
else
  limit=""
fi
[ -f "$binary" ] || { echo "package-target.sh: no binary at $binary" >&2; exit 2; }

rm -rf "$ext/server"
mkdir -p "$ext/server"
cp "$binary" "$ext/server/$exe"
chmod 755 "$ext/server/$exe"
# A binary given ready-made (a test's debug build) is stripped here when this machine can.
if [ -z "$limit" ] && [ "$exe" = strata ] && command -v strip >/dev/null; then
  strip "$ext/server/$exe" 2>/dev/null || true
fi

out="$ext/strata-$target.vsix"
(cd "$ext" && npm run --silent build >/dev/null &&
  cp "$repo/LICENSE" LICENSE &&
  npx vsce package --no-dependencies --allow-missing-repository --target "$target" --out "$out" </dev/null >/dev/null)
rm -rf "$ext/server"
size=$(stat -c %s "$out" 2>/dev/null || stat -f %z "$out")
if [ -n "$limit" ] && [ "$size" -gt "$limit" ]; then
  echo "package-target.sh: $out is $size bytes, over 15 MB" >&2
  exit 1
fi
echo "$out"
