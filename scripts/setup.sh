#!/usr/bin/env bash
# Installs everything the project needs on this machine kind (Node 20, Debian): npm packages from
# the lockfile; Debian's chromium (browser tests), pdflatex with booktabs/longtable (the LaTeX export
# test), python3 (the plain static server of the site test), and clickhouse-server with zookeeper (the
# ClickHouse store tests: scripts/clickhouse-cluster.sh), each only when missing.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund
fi
missing=()
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
command -v pdflatex >/dev/null 2>&1 || missing+=(texlive-latex-base texlive-latex-recommended)
if command -v pdflatex >/dev/null 2>&1 && ! kpsewhich booktabs.sty >/dev/null 2>&1; then missing+=(texlive-latex-recommended); fi
command -v python3 >/dev/null 2>&1 || missing+=(python3)
command -v clickhouse-server >/dev/null 2>&1 || missing+=(clickhouse-server)
[ -f /usr/share/java/zookeeper.jar ] || missing+=(zookeeper)
if [ ${#missing[@]} -gt 0 ] && [ -z "${GCPC_SKIP_APT:-}" ]; then
  if [ "$(id -u)" = "0" ]; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  else
    echo "setup: missing ${missing[*]} and not root; install them with apt-get (browser and LaTeX tests need them)" >&2
  fi
fi
