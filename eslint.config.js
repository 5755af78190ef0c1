import { readdirSync } from 'node:fs';
import path from 'node:path';
import js from '@eslint/js';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import importX from 'eslint-plugin-import-x';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

const root = import.meta.dirname;
const TS_WORKSPACES = ['shared', 'api', 'web', 'desktop', 'test'].map((w) => `${w}/**/*.{ts,tsx,mts}`);
const FEATURES = 'web/src/features';
const features = readdirSync(path.join(root, FEATURES), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

/**
 * The TypeScript resolver reads the root tsconfig's project references, so `.js`-suffixed imports of `.ts`
 * files resolve as tsc resolves them. Our workspace packages (@avp/*) resolve to their source through the
 * `source` export condition, so a cycle through another workspace is seen; that condition is kept to them,
 * since some published packages declare a `source` they do not ship.
 */
const project = path.join(root, 'tsconfig.json');
const typeScriptResolver = createTypeScriptImportResolver({ project });
const sourceResolver = createTypeScriptImportResolver({
  project,
  conditionNames: ['source', 'types', 'import', 'node', 'browser', 'default'],
});
const workspaceSourceResolver = {
  ...sourceResolver,
  name: 'avp-workspace-source',
  resolve: (source, file) =>
    source.startsWith('@avp/') ? sourceResolver.resolve(source, file) : { found: false },
};

/**
 * `no-restricted-imports` takes one option object per file (a later config block replaces an earlier one's),
 * so each group of files below lists every restriction that applies to it.
 */
const restrict = (...groups) => [
  'error',
  {
    paths: groups.flatMap((group) => group.paths ?? []),
    patterns: groups.flatMap((group) => group.patterns ?? []),
  },
];

// shared knows nothing of the others, nor of Node, React or Express (it runs in the browser too).
const SHARED = {
  patterns: [
    {
      group: ['@avp/api*', '@avp/web*', '@avp/desktop*', 'node:*', 'react*', 'express*'],
      message: 'shared is isomorphic and imports no other workspace.',
    },
  ],
};
// web talks to the api over HTTP and runs in the browser.
const WEB = {
  patterns: [
    { group: ['@avp/api*', '**/api/src/**'], message: 'web talks to the api over HTTP only.' },
    { group: ['node:*'], message: 'web runs in the browser.' },
  ],
};
// The app layer composes features through their public API (features/<feature>/index.ts).
const APP = {
  patterns: [
    {
      group: ['**/features/*/*'],
      message: "Import a feature through its index.ts (e.g. '../features/account'), not its internals.",
    },
  ],
};
// The upload engine is pure Node: it runs in Electron's utilityProcess and in the av-upload CLI.
const ENGINE = {
  paths: [
    {
      name: 'electron',
      message: 'The engine is pure Node (utilityProcess and CLI): hand Electron objects in.',
    },
  ],
  patterns: [{ group: ['electron/*'], message: 'The engine is pure Node (utilityProcess and CLI).' }],
};
// Test tooling stays out of the code that ships.
const NO_TEST_TOOLS = {
  paths: [
    { name: 'vitest', message: 'Production code never imports vitest: test helpers live in test support.' },
  ],
  patterns: [{ group: ['vitest/*', '@vitest/*'], message: 'Production code never imports vitest.' }],
};
const TEST_FILES = [
  '**/*.test.{ts,tsx}',
  '**/test/**',
  'web/src/test-setup.ts',
  // The widget kit's test helpers (user-event on Vitest's clock), imported only by its tests.
  'web/src/ui/test-utils.ts',
];

/** Each area's restrictions, from the broadest files to the narrowest (the last matching block wins). */
const AREAS = [
  { files: ['shared/src/**/*.ts'], groups: [SHARED] },
  { files: ['api/src/**/*.ts'], groups: [] },
  { files: ['desktop/src/**/*.{ts,tsx}'], groups: [] },
  { files: ['desktop/src/engine/**/*.ts'], groups: [ENGINE] },
  { files: ['web/src/**/*.{ts,tsx}'], groups: [WEB] },
  { files: ['web/src/app/**/*.{ts,tsx}'], groups: [WEB, APP] },
];
const restrictedImports = AREAS.flatMap(({ files, groups }) => [
  ...(groups.length > 0 ? [{ files, rules: { 'no-restricted-imports': restrict(...groups) } }] : []),
  { files, ignores: TEST_FILES, rules: { 'no-restricted-imports': restrict(...groups, NO_TEST_TOOLS) } },
]);

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      'var/**',
      'coverage/**',
      'test-results/**',
      'playwright-report/**',
      'test/.tmp/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      eqeqeq: ['error', 'smart'],
    },
  },
  {
    files: ['web/**/*.{ts,tsx}', 'desktop/src/renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  {
    // Import rules that follow the imports to files (the resolvers above).
    files: TS_WORKSPACES,
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': ['.ts', '.tsx', '.mts', '.js', '.jsx', '.mjs'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx', '.mts'] },
      'import-x/resolver-next': [workspaceSourceResolver, typeScriptResolver],
    },
    rules: { 'import-x/no-cycle': 'error' },
  },
  {
    // Features never import each other: web/src/app composes them (routes, layouts, the /client page).
    files: [`${FEATURES}/**/*.{ts,tsx}`],
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          basePath: root,
          zones: features.map((feature) => ({
            target: `${FEATURES}/${feature}`,
            from: FEATURES,
            except: [`./${feature}`],
            message: `features/${feature} may not import another feature: compose features in web/src/app.`,
          })),
        },
      ],
    },
  },
  ...restrictedImports,
);
