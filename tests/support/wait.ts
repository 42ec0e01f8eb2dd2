/**
 * How long a test waits for a state before it fails. A wait ends as soon as its state is there, so
 * this bound costs nothing on a quiet machine; it is generous so that a busy one (another test run
 * beside it, two cores) slows the suite down instead of failing it. Every wait of the suite — pages,
 * jobs, processes, mail — uses it (or a longer one), never a shorter bound of its own.
 */
export const STATE_WAIT_MS = 120_000;

/** Options for `expect.poll` over a state: retried every `interval` ms until it matches or STATE_WAIT_MS has passed. */
export const untilState = (interval = 100) => ({ timeout: STATE_WAIT_MS, interval }) as const;
