/**
 * The layers of docs/architecture.md, held by dependency-cruiser in `npm run check` (`npm run layers`).
 * Type-only imports count: they tie files together as much as any other (tsPreCompilationDeps).
 */

/**
 * Tests and what only tests use: the harness, stand-in servers, feature helpers and fixtures live in
 * test/support/; tests sit beside their code. The last two patterns keep a stand-in or a fixture
 * counted as test support should one be put back under src/.
 */
const TEST_SUPPORT = ['^test/', '\\.test\\.ts$', '(^|/)[^/]*stand-in[^/]*\\.ts$', '(^|/)fixtures/'];
/** What runs in production: `src/` without its tests and test support. */
const PRODUCTION = { path: '^src/', pathNot: TEST_SUPPORT };

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-cycles',
      comment: 'No import cycle, type-only imports included: the corridor has one direction.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'features-through-ports',
      comment:
        "A feature uses another feature only through that feature's port.ts; shared logic moves down " +
        '(db/, queue/, integrations/, text/, http/).',
      severity: 'error',
      from: { path: '^src/features/([^/]+)/', pathNot: TEST_SUPPORT },
      to: {
        path: '^src/features/([^/]+)/',
        pathNot: ['^src/features/$1/', '^src/features/[^/]+/port\\.ts$'],
      },
    },
    {
      name: 'nothing-below-features-looks-up',
      comment:
        'http/, db/, queue/, search/, integrations/, text/ and the infrastructure know no feature, nor the app, ' +
        'the server or the composition root.',
      severity: 'error',
      from: {
        path: [
          '^src/(http|db|queue|search|integrations|text|tracing)/',
          '^src/(infrastructure|config|logger|metrics|wizard)\\.ts$',
        ],
        pathNot: TEST_SUPPORT,
      },
      to: { path: ['^src/features/', '^src/(app|server|dependencies|start|main)\\.ts$'] },
    },
    {
      name: 'storage-and-clients-below-http',
      comment:
        'db/, queue/, search/, integrations/, text/ and the infrastructure sit below the HTTP layer: what ' +
        'they share with it (HTML reading, decoding, validation messages) lives in text/, not in http/.',
      severity: 'error',
      from: {
        path: [
          '^src/(db|queue|search|integrations|text|tracing)/',
          '^src/(infrastructure|config|logger|metrics|wizard)\\.ts$',
        ],
        pathNot: TEST_SUPPORT,
      },
      to: { path: '^src/http/' },
    },
    {
      name: 'features-below-the-centre',
      comment: 'Features are mounted by the centre; they never import it (app, server, composition root).',
      severity: 'error',
      from: { path: '^src/features/', pathNot: TEST_SUPPORT },
      to: { path: '^src/(app|server|dependencies|start|main)\\.ts$' },
    },
    {
      name: 'production-without-test-support',
      comment: 'No production file imports tests, stand-in servers or the test harness.',
      severity: 'error',
      from: PRODUCTION,
      to: { path: TEST_SUPPORT },
    },
    {
      name: 'not-to-unresolvable',
      comment: 'An import that resolves to nothing is a typo or a missing package.',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      mainFields: ['module', 'main', 'types', 'typings'],
    },
  },
};
