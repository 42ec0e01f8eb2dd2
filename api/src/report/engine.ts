/**
 * The report engine calls with the API's database context: moved to @norma/core-wasm/report so
 * that the PWA runs the same code; re-exported here for the API's other callers.
 */
export { engineSettings, runDayBalance, runStatement, runTimeStudy } from '@norma/core-wasm/report';
