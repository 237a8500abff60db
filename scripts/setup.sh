#!/usr/bin/env bash
# Installs everything the project needs on this machine kind (Node 20, Debian):
# npm packages from the lockfile, and Debian's chromium for the browser tests.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund
fi
if ! command -v chromium >/dev/null 2>&1 && [ -z "${GCPC_SKIP_BROWSER:-}" ]; then
  if [ "$(id -u)" = "0" ]; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  else
    echo "setup: chromium missing and not root; browser tests will fail (install Debian's chromium)" >&2
  fi
fi
