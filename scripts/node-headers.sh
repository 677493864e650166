#!/usr/bin/env bash
# Prints a folder holding the C headers of Node.js VERSION, from the npm registry's `node` package
# (no nodejs.org download), laid out as node-gyp's `nodedir` wants it. better-sqlite3 12 compiled
# against the headers of Node 24.19 or later aborts when a statement is collected outside a
# JavaScript context (ObjectWrap changed in 24.19); compiled against 24.18's, it runs on every 24.x:
#   npm_config_nodedir=$(bash scripts/node-headers.sh 24.18.0) npm rebuild better-sqlite3
set -euo pipefail
VERSION=${1:?usage: node-headers.sh VERSION (e.g. 24.18.0)}
DIR=${NODE_HEADERS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/petstore-node-headers}/$VERSION
if [ ! -f "$DIR/headers/common.gypi" ]; then
  rm -rf "$DIR" && mkdir -p "$DIR/package"
  (cd "$DIR/package" &&
    echo '{"private": true, "allowScripts": {"node": true}}' > package.json &&
    npm install --no-audit --no-fund --silent --ignore-scripts=false "node@$VERSION" >&2)
  PLATFORM_PACKAGE=$(find "$DIR/package/node_modules" -maxdepth 4 -type d -name 'node-linux-*' | head -n 1)
  mkdir -p "$DIR/headers"
  cp -r "$PLATFORM_PACKAGE/include" "$DIR/headers/include"
  # node-gyp's nodedir wants common.gypi at its root; the package keeps it under include/node/.
  ln -s include/node/common.gypi "$DIR/headers/common.gypi"
  rm -rf "$DIR/package"
fi
echo "$DIR/headers"
