/**
 * Ids of the JSON data blocks (`<script type="application/json" id=…>`) a server-made page carries
 * for the PWA: the API writes them (api/src/report/share-page.ts), the PWA reads them
 * (pwa/src/api/page-data.ts, `readPageData`). One definition for both sides.
 */

/** The shared report (`/demo/{key}`): the key, its window and the report over it. */
export const SHARED_REPORT_DATA_ID = 'norma-shared-report';

/** The page's answers to the reads the app makes on every start, keyed by the URL it asks. */
export const PAGE_ANSWERS_ID = 'norma-page-answers';
