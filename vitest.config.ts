import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: [
      'api/src/**/*.test.ts',
      'workers/src/**/*.test.ts',
      'core-wasm/src/**/*.test.ts',
      'pwa/src/**/*.test.{ts,tsx}',
      'tests/**/*.test.ts',
      'loader/**/*.test.ts',
    ],
    // Its teardown ends servers that a failed test file left running.
    globalSetup: ['tests/support/global-setup.ts'],
    // A busy test machine must not turn a slow read into a 503 in the servers the tests start: tests
    // check answers, the budget has its own test (api/src/http/time-budget.test.ts). Benches keep 30 s.
    env: { NORMA_READ_TIME_BUDGET_SECONDS: '600' },
    // One guard against a hang for every test and hook, none of their own: at load 30–40 on two cores
    // MoveNet over 32 frames and the OpenAPI fuzz ran past 5–10 minutes (CONTRIBUTING.md).
    testTimeout: 1_800_000,
    hookTimeout: 1_800_000,
    // Two cores: end-to-end files each start a server and a browser.
    maxWorkers: 2,
  },
});
