import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import GithubSlugger from 'github-slugger';
import { marked, type Token } from 'marked';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const PAGES = [
  'README.md',
  'client/README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

interface Page {
  links: string[];
  anchors: Set<string>;
}

function walk(tokens: Token[], visit: (token: Token) => void): void {
  for (const token of tokens) {
    visit(token);
    const nested = token as {
      tokens?: Token[];
      items?: { tokens: Token[] }[];
      header?: { tokens: Token[] }[];
      rows?: { tokens: Token[] }[][];
    };
    if (nested.tokens) walk(nested.tokens, visit);
    for (const item of nested.items ?? []) walk(item.tokens, visit);
    for (const cell of nested.header ?? []) walk(cell.tokens, visit);
    for (const row of nested.rows ?? []) for (const cell of row) walk(cell.tokens, visit);
  }
}

/** Links outside code, and the anchors GitHub gives the page's headings. */
function read(path: string): Page {
  const slugger = new GithubSlugger();
  const page: Page = { links: [], anchors: new Set() };
  walk(marked.lexer(readFileSync(join(ROOT, path), 'utf8')), (token) => {
    if (token.type === 'link' || token.type === 'image')
      page.links.push((token as { href: string }).href);
    if (token.type === 'heading') {
      const text = (token as { text: string }).text
        .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
        .replace(/[`*]/g, '');
      page.anchors.add(slugger.slug(text));
    }
  });
  return page;
}

const pages = new Map(PAGES.map((path) => [path, read(path)]));

function pageAt(path: string): Page {
  let page = pages.get(path);
  if (!page) pages.set(path, (page = read(path)));
  return page;
}

describe('documentation links', () => {
  it('should find the pages and their links', () => {
    expect(PAGES).toContain('docs/operations.md');
    expect(pageAt('README.md').links.length).toBeGreaterThan(10);
    expect(pageAt('docs/operations.md').anchors).toContain('schema-and-migrations');
  });

  it.each(PAGES)(
    '%s: every relative link leads to a file, and every anchor to a heading',
    (path) => {
      const broken: string[] = [];
      for (const href of pageAt(path).links) {
        if (/^[a-z][a-z0-9+.-]*:/i.test(href)) continue; // https:, mailto:: not checked offline
        const [target, anchor] = href.split('#') as [string, string | undefined];
        const file =
          target === '' ? join(ROOT, path) : join(ROOT, dirname(path), decodeURI(target));
        if (!existsSync(file)) {
          broken.push(`${href}: no ${relative(ROOT, file)}`);
          continue;
        }
        if (anchor === undefined || statSync(file).isDirectory() || !file.endsWith('.md')) continue;
        if (!pageAt(relative(ROOT, file)).anchors.has(anchor))
          broken.push(`${href}: no heading #${anchor} in ${relative(ROOT, file)}`);
      }
      expect(broken).toEqual([]);
    },
  );
});
