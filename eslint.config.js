import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/*
 * No library internals: a package is imported only by its root or a subpath it documents in its
 * `exports` (`vitest/config`), never by a file inside it (`express/lib/…`, `typeorm/driver/…`,
 * `<pkg>/dist/…`); and no member whose name starts with `_`, which is how JavaScript libraries
 * mark what is theirs alone (`req._parsedUrl`, `socket._httpMessage`). `__proto__` is the
 * language's, not a library's. test/lint.e2e-spec.ts plants both and expects the failures.
 */
const PACKAGE_FILE =
  '^(?:@[^./][^\\x2F]*\\x2F)?[^.\\x2F@][^\\x2F]*\\x2F(?:(?:.*\\x2F)?(?:dist|lib|src|helpers|internal|driver|build|cjs|esm)(?:\\x2F|$)|.*\\.[cm]?[jt]s$)';
const INTERNAL_IMPORT =
  "Import the package's root or a subpath it documents in its `exports`, not a file inside it";
const UNDERSCORE = '^_(?!_proto__$)';
const UNDERSCORE_MEMBER =
  "A member whose name starts with `_` is a library's own: use its documented API instead";

const libraryInternals = {
  rules: {
    'no-restricted-imports': [
      'error',
      { patterns: [{ regex: PACKAGE_FILE, message: INTERNAL_IMPORT }] },
    ],
    'no-restricted-syntax': [
      'error',
      {
        selector: `ImportExpression > Literal.source[value=/${PACKAGE_FILE}/]`,
        message: INTERNAL_IMPORT,
      },
      {
        selector: `CallExpression[callee.name='require'] > Literal.arguments[value=/${PACKAGE_FILE}/]`,
        message: INTERNAL_IMPORT,
      },
      {
        selector: `CallExpression[callee.callee.name='createRequire'] > Literal.arguments[value=/${PACKAGE_FILE}/]`,
        message: INTERNAL_IMPORT,
      },
      {
        selector: `MemberExpression[computed=false] > Identifier.property[name=/${UNDERSCORE}/]`,
        message: UNDERSCORE_MEMBER,
      },
      {
        selector: `MemberExpression[computed=true] > Literal.property[value=/${UNDERSCORE}/]`,
        message: UNDERSCORE_MEMBER,
      },
      {
        selector: `ObjectPattern > Property > Identifier.key[name=/${UNDERSCORE}/]`,
        message: UNDERSCORE_MEMBER,
      },
    ],
  },
};

/*
 * No patching of libraries: a library's objects and classes are used through their API, never
 * changed. Assigning to a member of anything imported from a package (`express.response.json =`,
 * `Server.prototype.close =`), reaching a library class's `.prototype` (`Server.prototype.close.call`),
 * or assigning a function to a member of an object the code did not define (`adapter.beforeClose =
 * …`) fails. Express documents one exception, "overriding the Express API" (`app.response.end`):
 * src/platform/http/express-api.ts alone does that, and says so. test/lint.e2e-spec.ts plants each.
 */
const PATCHED = "Don't patch a library: use its documented API (hooks, options, subclasses)";
function importedFromPackage(sourceCode, node) {
  let root = node;
  while (root.type === 'MemberExpression') root = root.object;
  if (root.type !== 'Identifier') return false;
  for (let scope = sourceCode.getScope(node); scope; scope = scope.upper) {
    const variable = scope.set.get(root.name);
    if (variable === undefined) continue;
    return variable.defs.some(
      (def) => def.type === 'ImportBinding' && !String(def.parent.source.value).startsWith('.'),
    );
  }
  return false;
}
const isFunctionValue = (node) =>
  node.type === 'ArrowFunctionExpression' ||
  node.type === 'FunctionExpression' ||
  (node.type === 'CallExpression' &&
    node.callee.type === 'MemberExpression' &&
    !node.callee.computed &&
    node.callee.property.name === 'bind');
const noLibraryPatching = {
  meta: { type: 'problem', schema: [] },
  create(context) {
    const sourceCode = context.sourceCode;
    return {
      AssignmentExpression(node) {
        const target = node.left;
        if (target.type !== 'MemberExpression') return;
        if (
          importedFromPackage(sourceCode, target) ||
          (isFunctionValue(node.right) && target.object.type !== 'ThisExpression')
        )
          context.report({ node, message: PATCHED });
      },
      MemberExpression(node) {
        if (
          !node.computed &&
          node.property.name === 'prototype' &&
          importedFromPackage(sourceCode, node.object)
        )
          context.report({ node, message: PATCHED });
      },
    };
  },
};

export default tseslint.config(
  {
    ignores: [
      'dist/',
      'node_modules/',
      'coverage/',
      'artifacts/',
      'data/',
      'client/dist/',
      'client/src/generated/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        Buffer: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        URL: 'readonly',
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'off',
    },
  },
  libraryInternals,
  {
    files: ['src/**/*.ts'],
    plugins: { local: { rules: { 'no-library-patching': noLibraryPatching } } },
    rules: { 'local/no-library-patching': 'error' },
  },
  {
    // Express's documented "overriding the Express API", in the one file that says so.
    files: ['src/platform/http/express-api.ts'],
    rules: { 'local/no-library-patching': 'off' },
  },
);
