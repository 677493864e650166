import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/*
 * The lint rules that keep library internals out (eslint.config.js), run through ESLint's Node
 * API on planted code, as `npm run lint` would run them on a file under src/.
 */

const eslint = new ESLint({ cwd: new URL('..', import.meta.url).pathname });

/** The rule and line of every failure in `code`, linted as if it were src/planted.ts. */
async function failures(code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: 'src/planted.ts' });
  return result.messages.map((message) => `${message.line} ${message.ruleId}`);
}

describe('lint: no library internals', () => {
  it('should fail on an import of a file inside a package', async () => {
    expect(
      await failures(
        [
          "import { ExecutionContextHost } from '@nestjs/core/helpers/execution-context-host.js';",
          "import type { IsolationLevel } from 'typeorm/driver/types/IsolationLevel.js';",
          "import router from 'express/lib/router';",
          "import { thing } from 'some-package/dist/thing';",
          "import { other } from '@scope/package/internal/other';",
          'export { ExecutionContextHost, router, thing, other };',
          'export type { IsolationLevel };',
        ].join('\n'),
      ),
    ).toEqual([
      '1 no-restricted-imports',
      '2 no-restricted-imports',
      '3 no-restricted-imports',
      '4 no-restricted-imports',
      '5 no-restricted-imports',
    ]);
  });

  it('should fail on a file inside a package loaded at run time', async () => {
    expect(
      await failures(
        [
          "import { createRequire } from 'node:module';",
          "export const symbols = createRequire(import.meta.url)('router/lib/symbols.js');",
          "export const lazy = await import('express/lib/request.js');",
        ].join('\n'),
      ),
    ).toEqual(['2 no-restricted-syntax', '3 no-restricted-syntax']);
  });

  it("should fail on a library's underscore members, however they are reached", async () => {
    expect(
      await failures(
        [
          'declare const req: Record<string, unknown>;',
          'export const parsed = req._parsedUrl;',
          "export const count = req['_eventsCount'];",
          'export const { _httpMessage } = req;',
        ].join('\n'),
      ),
    ).toEqual(['2 no-restricted-syntax', '3 no-restricted-syntax', '4 no-restricted-syntax']);
  });

  it('should allow package roots, documented subpaths, relative files and the language’s __proto__', async () => {
    expect(
      await failures(
        [
          "import { Injectable } from '@nestjs/common';",
          "import { DataSource } from 'typeorm';",
          "import { defineConfig } from 'vitest/config';",
          "import { readFile } from 'node:fs/promises';",
          "import { local } from './lib/local.js';",
          'declare const value: { __proto__: unknown };',
          'export const proto = value.__proto__;',
          'export { Injectable, DataSource, defineConfig, readFile, local };',
        ].join('\n'),
      ),
    ).toEqual([]);
  });
});

describe('lint: no patching of libraries', () => {
  it("should fail on a library's method reassigned, through its import or an object it handed out", async () => {
    expect(
      await failures(
        [
          "import express from 'express';",
          "import { Server } from 'node:net';",
          "import type { HttpAdapterHost } from '@nestjs/core';",
          'declare const host: HttpAdapterHost;',
          'express.response.json = () => undefined;',
          'Server.prototype.close = () => undefined as never;',
          'const adapter = host.httpAdapter;',
          'const close = adapter.close.bind(adapter);',
          'adapter.close = async () => close();',
          'adapter.beforeClose = close.bind(adapter);',
        ].join('\n'),
      ),
    ).toEqual([
      '5 local/no-library-patching',
      '6 local/no-library-patching',
      '6 local/no-library-patching',
      '9 local/no-library-patching',
      '10 local/no-library-patching',
    ]);
  });

  it("should fail on a call through a library class's prototype", async () => {
    expect(
      await failures(
        [
          "import { Server } from 'node:net';",
          "import type { Server as HttpServer } from 'node:http';",
          'declare const server: HttpServer;',
          'Server.prototype.close.call(server);',
        ].join('\n'),
      ),
    ).toEqual(['4 local/no-library-patching']);
  });

  it("should allow the app's own objects, subclasses and Express's one documented override file", async () => {
    expect(
      await failures(
        [
          "import { ExpressAdapter } from '@nestjs/platform-express';",
          "import { helper } from './helper.js';",
          'export class Adapter extends ExpressAdapter {',
          '  private hook = (): void => undefined;',
          '  constructor() {',
          '    super();',
          '    this.hook = () => helper();',
          '  }',
          '  override beforeClose(): void {',
          '    this.hook();',
          '  }',
          '}',
          'const counts = { seen: 0 };',
          'counts.seen = 1;',
          'export { counts };',
        ].join('\n'),
      ),
    ).toEqual([]);
    const [override] = await eslint.lintText(
      "import type { Express } from 'express';\nexport const set = (app: Express) => {\n  app.response.json = function json() {\n    return this;\n  };\n};\n",
      { filePath: 'src/platform/http/express-api.ts' },
    );
    expect(override.messages).toEqual([]);
  });
});
