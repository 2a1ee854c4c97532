#!/usr/bin/env bash
# The installed size of each production install the workspaces allow (docs/operations.md,
# "What each machine installs"): the repository's package.json files and lockfile copied into a
# clean folder, `npm ci --omit=dev` for each set of workspaces there, `du` of node_modules.
#   bash scripts/measure-installs.sh [--each]      (--each: every workspace alone as well)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
workspaces=$(node -p "require('$root/package.json').workspaces.join(' ')")

install() { # a name, then npm ci's workspace arguments
  local name=$1
  shift
  local at="$work/$name"
  mkdir -p "$at"
  cp "$root/package.json" "$root/package-lock.json" "$at/"
  for w in $workspaces; do mkdir -p "$at/$w" && cp "$root/$w/package.json" "$at/$w/"; done
  (cd "$at" && npm ci --no-audit --no-fund --loglevel error "$@" >/dev/null)
  local size packages
  size=$(du -sm "$at/node_modules" | cut -f1)
  # Packages fetched into node_modules (its top level and scopes; the workspaces' links not counted).
  packages=$( (find "$at/node_modules" -mindepth 2 -maxdepth 2 -name package.json -not -path '*/node_modules/@*/package.json'
    find "$at/node_modules" -mindepth 3 -maxdepth 3 -name package.json -path '*/node_modules/@*/*/package.json') | wc -l)
  printf '%-12s %6s MB %5s packages   npm ci %s\n' "$name" "$size" "$packages" "$*"
  rm -rf "$at"
}

install root-all
install root-prod --omit=dev
install cabinet --omit=dev -w electron -w renderer -w cli -w witness
install upstream --omit=dev -w upstream
if [ "${1:-}" = --each ]; then
  for w in $workspaces; do install "$w" --omit=dev -w "$w"; done
fi
