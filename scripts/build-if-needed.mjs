// `npm start` (scripts/start.mjs) and the CLI build first when dist/ is missing or older than any
// source file, so a fresh clone needs only `npm ci && npm start`.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    const mtime = entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs;
    if (mtime > newest) newest = mtime;
  }
  return newest;
}

const marker = 'dist/main.js';
const stale =
  !existsSync(marker) ||
  Math.max(newestMtime('src'), statSync('tsconfig.build.json').mtimeMs) > statSync(marker).mtimeMs;
if (stale) {
  process.stderr.write('Building dist/ ...\n');
  execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json'], {
    stdio: 'inherit',
  });
}
