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
);
