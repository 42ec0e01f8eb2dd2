/**
 * The organisation's local calendar time ↔ UTC instants. The code lives in core-wasm, where the
 * reports assembled in the browser use it too; the API's callers import it from here.
 */
export * from '@norma/core-wasm/report/time-zone';
