#!/usr/bin/env node
// Prints the share of comment lines among the non-blank lines of the TypeScript files under a
// folder (default src/): `node scripts/comment-share.mjs [dir]`.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

function* files(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* files(path);
    else if (entry.name.endsWith('.ts')) yield path;
  }
}

let lines = 0;
let comments = 0;
for (const file of files(process.argv[2] ?? 'src')) {
  let inBlock = false;
  for (const raw of readFileSync(file, 'utf8').split('\n')) {
    const line = raw.trim();
    if (line === '') continue;
    lines++;
    if (inBlock) {
      comments++;
      if (line.includes('*/')) inBlock = false;
    } else if (line.startsWith('//')) {
      comments++;
    } else if (line.startsWith('/*')) {
      comments++;
      inBlock = !line.includes('*/');
    }
  }
}
const share = ((100 * comments) / lines).toFixed(1);
console.log(`${comments} comment lines of ${lines} non-blank lines: ${share}%`);
