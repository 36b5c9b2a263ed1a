/** The hostile-input suites' knobs: a fixed seed (a failure reproduces; change it to explore) and run counts. */
export const SEED = Number(process.env.FUZZ_SEED ?? 20_261_110);
/** Generated requests per route and per engine; the wrong-method and unknown-path batches add more. */
export const RUNS_PER_ROUTE = Number(process.env.FUZZ_RUNS ?? 80);
/** Generated raw-socket cases (header values and request targets). */
export const RAW_RUNS = Number(process.env.FUZZ_RAW_RUNS ?? 150);
