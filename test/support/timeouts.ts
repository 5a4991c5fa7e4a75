/**
 * The time limit for a test whose work is CPU-bound and large (starting CLI processes, rendering
 * multi-megabyte blocks). vitest's 60 s default only has to catch a hang, but on a loaded machine
 * (test/long/loaded-suite.sh: the suite beside stress-ng and other work) such a test's CPU share
 * can stretch it past a minute without anything being wrong. Five minutes still ends a hang well
 * within CI's budget.
 */
export const HEAVY_TEST_TIMEOUT_MS = 300_000;
