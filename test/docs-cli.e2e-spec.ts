import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, ROOT, runCli } from './support/built-server.js';

const INVOCATION = 'npm run --silent cli -- ';
const page = readFileSync(join(ROOT, 'docs', 'cli.md'), 'utf8');

/** docs/cli.md's sections by heading (`## keys create` -> its text). */
const sections = new Map(
  page
    .split(/^## /m)
    .slice(1)
    .map((section) => [section.slice(0, section.indexOf('\n')), section] as const),
);

interface Listed {
  path: string;
  synopsis: string;
}

/** The commands as the CLI lists them in `--help`: `keys revoke ID`, `keys list [--json]`, … */
function commandsIn(help: string): Listed[] {
  const block = help.slice(help.indexOf('Commands:\n'), help.indexOf('\nOptions:'));
  return [...block.matchAll(/^ {2}(\S.*)$/gm)].map(([, synopsis]) => ({
    synopsis,
    path: synopsis
      .split(' ')
      .filter(
        (word, i, all) =>
          /^[a-z][a-z-]*$/.test(word) && all.slice(0, i).every((w) => /^[a-z][a-z-]*$/.test(w)),
      )
      .join(' '),
  }));
}

/** The field list documented after `--json` in a section: `{id, prefix, …}`. */
function documentedFields(section: string, marker: RegExp): string[] {
  const text = section.replace(/\s+/g, ' ');
  const at = text.search(marker);
  expect(at, `${marker} in docs/cli.md`).toBeGreaterThanOrEqual(0);
  const list = /`\{([^}]*)\}`/.exec(text.slice(at))![1];
  return list.split(',').map((field) => field.trim());
}

describe('docs/cli.md against the CLI', () => {
  const dir = mkdtempSync(join(tmpdir(), 'petstore-docs-cli-'));
  const env = { DATABASE_URL: `sqlite:${join(dir, 'cli.sqlite')}`, APP_ENV: 'staging' };
  let commands: Listed[];

  beforeAll(async () => {
    await ensureBuilt();
    commands = commandsIn((await runCli(env, ['--help'])).stdout);
  }, 60_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('should document every command under its own heading, with the synopsis the CLI prints', () => {
    expect(commands.map((command) => command.path)).toEqual(
      expect.arrayContaining([
        'keys create',
        'keys list',
        'keys revoke',
        'keys roll',
        'inventory import',
        'inventory history',
      ]),
    );
    const missing = commands.filter(({ path, synopsis }) => {
      const section = sections.get(path);
      return !section?.split('\n').includes(`${INVOCATION}${synopsis}`);
    });
    expect(missing.map(({ synopsis }) => `${INVOCATION}${synopsis}`)).toEqual([]);
  });

  it('should document no command the CLI does not have', () => {
    const known = new Set(commands.map((command) => command.path));
    const headings = [...sections.keys()].filter((heading) => /^[a-z]+ [a-z-]+$/.test(heading));
    expect(headings.filter((heading) => !known.has(heading))).toEqual([]);
  });

  it('should name every option of a command in its section', () => {
    const unnamed: string[] = [];
    for (const { path, synopsis } of commands)
      for (const [option] of synopsis.matchAll(/--[a-z-]+/g))
        if (!sections.get(path)?.includes(`\`${option}`)) unnamed.push(`${path} ${option}`);
    expect(unnamed).toEqual([]);
  });

  it('should list the fields that --json prints', async () => {
    const created = JSON.parse(
      (await runCli(env, ['keys', 'create', '--plan', 'free', '--json'])).stdout,
    ) as Record<string, unknown>;
    const listed = JSON.parse((await runCli(env, ['keys', 'list', '--json'])).stdout) as Record<
      string,
      unknown
    >[];
    const rolled = JSON.parse(
      (await runCli(env, ['keys', 'roll', String(created.id), '--json'])).stdout,
    ) as Record<string, unknown>;
    expect(documentedFields(sections.get('keys create')!, /`--json`/)).toEqual(
      Object.keys(created),
    );
    expect(documentedFields(sections.get('keys list')!, /`--json` prints/)).toEqual(
      Object.keys(listed[0]),
    );
    const rollOnly = Object.keys(rolled).filter((field) => !(field in created));
    expect(rollOnly.length).toBeGreaterThan(0);
    for (const field of rollOnly) expect(sections.get('keys roll')).toContain(`\`${field}\``);
  });
});
