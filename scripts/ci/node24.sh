#!/usr/bin/env bash
# Runs `npm test` on Node 24 (the current LTS) beside the machine's Node, in the project given
# (default: this checkout). Node 24 (the major in .nvmrc) comes from the registry's `node` package, which ships the
# binary and the headers better-sqlite3 is compiled against. The driver is rebuilt for Node 24
# before the run and for the machine's Node after it, whatever the outcome: a build for one
# Node does not load in the other (NODE_MODULE_VERSION).
# NODE24_KEEP_BUILD=1 leaves the driver built for Node 24: for a checkout that is thrown away
# after this run, the rebuild for the machine's Node would be a minute spent for nothing.
# NODE24_HEADERS_VERSION (e.g. 24.18.0) compiles the driver against another 24.x's headers: the
# ObjectWrap of 24.19 and later makes better-sqlite3 12 abort when a statement is collected
# outside a JavaScript context.
set -euo pipefail
PROJECT=$(cd "${1:-$(dirname "$0")/../..}" && pwd)
WORK=$(mktemp -d)

rebuild_for_machine() {
  if [ "${NODE24_KEEP_BUILD:-0}" != 1 ]; then
    echo "== rebuilding better-sqlite3 for $(node --version)"
    (cd "$PROJECT" && npm rebuild --silent better-sqlite3)
  fi
  rm -rf "$WORK"
}
trap rebuild_for_machine EXIT

echo "== installing node@$(cat "$PROJECT/.nvmrc") (.nvmrc) into $WORK"
cd "$WORK"
echo '{"private": true, "allowScripts": {"node": true}}' > package.json
npm install --no-audit --no-fund --silent --ignore-scripts=false "node@$(cat "$PROJECT/.nvmrc")"
NODE24_BIN="$WORK/node_modules/.bin"
echo "== node $("$NODE24_BIN/node" --version)"
if [ -n "${NODE24_HEADERS_VERSION:-}" ]; then
  HEADERS=$(NODE_HEADERS_CACHE="$WORK/headers-cache" bash "$PROJECT/scripts/node-headers.sh" "$NODE24_HEADERS_VERSION")
  echo "== headers of node $NODE24_HEADERS_VERSION"
else
  # node-gyp's nodedir wants common.gypi at its root; the package keeps it under include/node/.
  PLATFORM_PACKAGE=$(find "$WORK/node_modules" -maxdepth 4 -type d -name 'node-linux-*' | head -n 1)
  HEADERS="$WORK/headers"
  mkdir -p "$HEADERS"
  cp -r "$PLATFORM_PACKAGE/include" "$HEADERS/include"
  ln -s include/node/common.gypi "$HEADERS/common.gypi"
fi

cd "$PROJECT"
echo "== rebuilding better-sqlite3 for Node 24"
# The variable overrides a `nodedir` in the user's npm config (the machine's own headers).
npm_config_nodedir="$HEADERS" PATH="$NODE24_BIN:$PATH" npm rebuild --silent better-sqlite3
echo "== test on Node 24"
PATH="$NODE24_BIN:$PATH" npm test
