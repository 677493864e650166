/** Import rules checked by `npm run lint` (dependency-cruiser). */
export default {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'Modules that import each other load in an order that depends on who came first.',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'platform-internals',
      severity: 'error',
      comment:
        'Outside src/platform/, the HTTP platform is used through src/platform/http/index.ts only.',
      from: { path: '^src/', pathNot: '^src/platform/' },
      to: { path: '^src/platform/', pathNot: '^src/platform/http/index[.]ts$' },
    },
    {
      name: 'platform-names-no-feature',
      severity: 'error',
      comment: 'The platform sits under the features: it imports only config and the error types.',
      from: { path: '^src/platform/' },
      to: { path: '^src/', pathNot: '^src/(platform|config|common/errors)/' },
    },
    {
      name: 'database-imports-no-feature',
      severity: 'error',
      comment:
        'src/database/ is infrastructure: it imports config and common code, never a feature.',
      from: { path: '^src/database/' },
      to: { path: '^src/', pathNot: '^src/(database|config|common)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '[.]spec[.]ts$' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
