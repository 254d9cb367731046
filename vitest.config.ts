import { configDefaults, defineConfig } from 'vitest/config';

/**
 * The suites that drive real external programs (a Verdaccio registry, Chromium, the npm client packing
 * every group): slow, so they are their own project, `npx vitest run --project unit` skips them while
 * working. `npm test` and CI run both projects.
 */
const E2E = [
  'test/publish/e2e/**/*.test.ts',
  'test/docs/browser/**/*.test.ts',
  'test/publish/package-quality.test.ts',
  'test/packed-cli.test.ts',
];

/** Timeouts are hang guards, not timed assertions: generous enough for a loaded 2-core CI machine. */
const UNIT_TIMEOUT_MS = 60_000;
const E2E_TIMEOUT_MS = 300_000;

/** vitest's configuration: the `unit` and `e2e` projects. */
export default defineConfig({
  test: {
    // Builds the repository's catalogue once for the tests that need its packages as files.
    globalSetup: ['test/global-setup.ts'],
    // Removes the temporary folders each test file made.
    setupFiles: ['test/setup.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...E2E],
          testTimeout: UNIT_TIMEOUT_MS,
          hookTimeout: UNIT_TIMEOUT_MS,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: E2E,
          testTimeout: E2E_TIMEOUT_MS,
          hookTimeout: E2E_TIMEOUT_MS,
        },
      },
    ],
  },
});
