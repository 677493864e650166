import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './support/built-server.js';

/** Every variable the configuration reads, as `(env, 'NAME'` or `env.NAME` in src/config/. */
function variablesRead(): Set<string> {
  const dir = join(ROOT, 'src/config');
  const names = new Set<string>();
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.ts') && !f.endsWith('.spec.ts'))) {
    const text = readFileSync(join(dir, file), 'utf8');
    for (const m of text.matchAll(/\(env, '([A-Z][A-Z0-9_]+)'|\benv\.([A-Z][A-Z0-9_]+)/g))
      names.add(m[1] ?? m[2]);
  }
  return names;
}

describe('.env.example', () => {
  it('should list every variable the configuration reads, and no other', () => {
    const listed = new Set(
      readFileSync(join(ROOT, '.env.example'), 'utf8')
        .split('\n')
        .map((line) => /^([A-Z][A-Z0-9_]+)=/.exec(line)?.[1])
        .filter((name): name is string => name !== undefined),
    );
    expect([...listed].sort()).toEqual([...variablesRead()].sort());
  });
});
