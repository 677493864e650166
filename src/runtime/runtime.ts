import { readFileSync } from 'node:fs';
import semver from 'semver';

export interface PackageManifest {
  name: string;
  version: string;
  engines: { node: string };
}

let manifest: PackageManifest | undefined;

/** The service's package.json (beside src/ and dist/ alike). */
export function packageManifest(): PackageManifest {
  manifest ??= JSON.parse(
    readFileSync(new URL('../../package.json', import.meta.url), 'utf8'),
  ) as PackageManifest;
  return manifest;
}

/** The Node.js versions the service supports: package.json's `engines`, the one place they are written. */
export function supportedNodeRange(): string {
  return packageManifest().engines.node;
}

export function nodeVersionProblem(
  version: string = process.versions.node,
  range: string = supportedNodeRange(),
): string | undefined {
  if (semver.satisfies(version, range)) return undefined;
  return (
    `Node.js ${version} is not supported; use Node.js ${range.replaceAll(' || ', ', ')} ` +
    '(Node 24 recommended: `nvm install` reads .nvmrc), then `npm ci`'
  );
}

// What Node's dlopen says about an addon built for another Node.js version, ABI or platform.
const MISMATCH =
  /NODE_MODULE_VERSION|did not self-register|invalid ELF header|wrong ELF class|undefined symbol|compiled against a different Node\.js version/;

/**
 * Opens an in-memory SQLite database, which loads better-sqlite3's compiled addon: a build for
 * another Node.js fails here with one line naming the fix, not later as a database error.
 * `nativeBinding` is better-sqlite3's own option for the addon's path.
 */
export async function sqliteDriverProblem(nativeBinding?: string): Promise<string | undefined> {
  const { default: Database } = await import('better-sqlite3');
  try {
    new Database(':memory:', nativeBinding ? { nativeBinding } : {}).close();
    return undefined;
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'ERR_DLOPEN_FAILED' && !MISMATCH.test(message)) throw err;
    const reason = message.split('\n')[0];
    return (
      `the SQLite driver (better-sqlite3) was built for another Node.js than ${process.version} ` +
      `(${reason}); rebuild it with \`npm rebuild better-sqlite3\``
    );
  }
}
