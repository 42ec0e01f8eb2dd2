/** Russian wording of report texts: shared with the PWA through @norma/core-wasm/report. */
export { formatDuration, formatNumber, formatPercent, formatRoubles, plural, round2 } from '@norma/core-wasm/report';
