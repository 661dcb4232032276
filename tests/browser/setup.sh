#!/bin/sh
# Installs the browser tests' npm dependencies (playwright-core, pinned in
# package-lock.json) with `npm ci` unless the installed version already
# matches the lock file. Used by scripts/deps --test and by the CTest fixture.
set -eu
cd "$(dirname "$0")"
want=$(node -e 'console.log(require("./package-lock.json").packages["node_modules/playwright-core"].version)')
have=$(node -e 'try { console.log(require("./node_modules/playwright-core/package.json").version) } catch (e) { console.log("none") }')
if [ "$want" != "$have" ]; then
  npm ci --no-audit --no-fund --loglevel=error
fi
