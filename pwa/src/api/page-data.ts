/**
 * The JSON data block a server-made page carries under `id` (`<script type="application/json">`,
 * not a script the browser runs: the Content-Security-Policy stays as it is), parsed; the block is
 * dropped from the page. Null when the page has none or it is not JSON. Each reader asks once and
 * keeps what it got.
 */
export function readPageData(id: string): unknown {
  const block = typeof document === 'undefined' ? null : document.getElementById(id);
  block?.remove();
  try {
    return block ? (JSON.parse(block.textContent ?? '') as unknown) : null;
  } catch {
    return null;
  }
}
