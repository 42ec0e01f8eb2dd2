// The JSON data block in which the server sends, with a page, its answers to the first reads the app
// makes on every start (GET /api/v1/instance, GET /api/v1/whoami), keyed by the URL the client asks
// (api/src/report/share-page.ts, the shared report's link); the id is defined once for both sides.
import { PAGE_ANSWERS_ID } from '@norma/core-wasm/report/page-data';
import { readPageData } from './page-data';

/** The block's answers, read once (the block is dropped then); null: none, or not JSON. */
let answers: Map<string, unknown> | null | undefined;

/**
 * The page's answer to a GET of `url`, taken once: the next read of it asks the server. Undefined
 * when the page brought none — on a phone network each one saved is a round trip that no longer
 * queues behind the fonts for one of the browser's six connections.
 */
export function takePageAnswer(url: string): { reply: unknown } | undefined {
  if (answers === undefined) {
    const data = readPageData(PAGE_ANSWERS_ID) as Record<string, unknown> | null;
    answers = data ? new Map(Object.entries(data)) : null;
  }
  if (!answers?.has(url)) return undefined;
  const reply = answers.get(url);
  answers.delete(url);
  return { reply };
}
