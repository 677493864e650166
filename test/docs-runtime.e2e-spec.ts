import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';
import { ROOT } from './support/built-server.js';

const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  engines: { node: string };
};
const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, { version?: string; engines?: { node?: string } | string[] }>;
};
const development = readFileSync(join(ROOT, 'docs', 'development.md'), 'utf8');
const runtimes = development.slice(
  development.indexOf('## Runtimes'),
  development.indexOf('\n## ', development.indexOf('## Runtimes') + 1),
);

/** The oldest release of each line the range names: `^20.19.0 || …` -> 20.19.0, … */
const oldest = manifest.engines.node
  .split('||')
  .map((part) => semver.minVersion(part.trim())!.version);

/** The installed packages whose `engines` leave out `version`: npm warns EBADENGINE for each. */
function refusing(version: string): string[] {
  const names = new Set<string>();
  for (const [path, entry] of Object.entries(lock.packages)) {
    const wanted = Array.isArray(entry.engines) ? undefined : entry.engines?.node;
    if (path === '' || !wanted || semver.satisfies(version, wanted)) continue;
    names.add(path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length));
  }
  return [...names].sort();
}

describe('docs/development.md on the supported Node versions', () => {
  it('should state the range of package.json', () => {
    expect(runtimes).toContain(`\`${manifest.engines.node}\``);
    expect(oldest.map((version) => semver.major(version))).toEqual([20, 22, 24]);
  });

  it('should name every package npm warns about on the oldest Node of the range', () => {
    const warned = refusing(oldest[0]);
    expect(warned.length).toBeGreaterThan(0);
    expect(warned.filter((name) => !runtimes.includes(`\`${name}\``))).toEqual([]);
    expect(runtimes).toContain(`EBADENGINE\` for the ${warned.length} packages`);
  });

  it('should have no such warning on the oldest 22.x and 24.x of the range', () => {
    for (const version of oldest.slice(1)) expect(refusing(version), version).toEqual([]);
  });
});
