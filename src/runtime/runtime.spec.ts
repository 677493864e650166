import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import semver from 'semver';
import { afterAll, describe, expect, it } from 'vitest';
import { nodeVersionProblem, sqliteDriverProblem, supportedNodeRange } from './runtime.js';

const root = (file: string) => readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8');

describe('supported Node.js versions', () => {
  it('should take the range from package.json, which .nvmrc, .node-version and this Node fit', () => {
    const range = supportedNodeRange();
    expect(range).toBe(
      (JSON.parse(root('package.json')) as { engines: { node: string } }).engines.node,
    );
    for (const file of ['.nvmrc', '.node-version']) {
      // A major alone, as nvm and its peers read it: the newest release of that line.
      const pinned = root(file).trim();
      expect(pinned, file).toMatch(/^\d+$/);
      expect(semver.satisfies(`${pinned}.99.0`, range), file).toBe(true);
    }
    expect(nodeVersionProblem()).toBeUndefined();
  });

  it('should refuse a version outside the range in one line that names it, the range and the fix', () => {
    const range = '^20.19.0 || ^22.22.3 || ^24.15.0';
    for (const ok of ['20.19.0', '20.20.2', '22.22.3', '24.15.0', '24.21.0'])
      expect(nodeVersionProblem(ok, range), ok).toBeUndefined();
    for (const bad of ['18.20.0', '20.18.3', '21.7.0', '22.12.0', '23.0.0', '24.14.0', '26.0.0']) {
      const problem = nodeVersionProblem(bad, range);
      expect(problem).toBe(
        `Node.js ${bad} is not supported; use Node.js ^20.19.0, ^22.22.3, ^24.15.0 ` +
          '(Node 24 recommended: `nvm install` reads .nvmrc), then `npm ci`',
      );
    }
  });
});

describe('SQLite driver check', () => {
  const dir = mkdtempSync(join(tmpdir(), 'petstore-driver-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('should pass with the driver built for this Node', async () => {
    await expect(sqliteDriverProblem()).resolves.toBeUndefined();
  });

  it('should name the rebuild command, not DATABASE_URL, when the addon does not load', async () => {
    const foreign = join(dir, 'better_sqlite3.node');
    writeFileSync(foreign, 'not a shared object built for this Node.js');
    const problem = await sqliteDriverProblem(foreign);
    expect(problem).toMatch(
      new RegExp(
        `^the SQLite driver \\(better-sqlite3\\) was built for another Node\\.js than ${process.version} \\(.+\\); rebuild it with \`npm rebuild better-sqlite3\`$`,
      ),
    );
    expect(problem).not.toContain('\n');
    expect(problem).not.toContain('DATABASE_URL');
  });
});
