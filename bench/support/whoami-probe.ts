/// <reference lib="webworker" />
/**
 * The bystander of bench/hard-limits.bench.ts, on a thread of its own so that the attackers' work in
 * the bench process (building and sending megabytes) does not delay it. From `start` until `stop` it
 * sends GET /api/v1/whoami every INTERVAL_MS whether or not the previous one has answered, and
 * measures each from the moment it was due: a server that stalls for a second then shows a second's
 * worth of slow answers, not one (no coordinated omission). Then posts the latencies in ms.
 */
declare const self: Worker;
const INTERVAL_MS = 5;
let stop: (() => void) | null = null;
self.onmessage = async (event: MessageEvent<{ start: { url: string; cookie: string } } | { stop: true }>) => {
  if ('stop' in event.data) {
    stop?.();
    return;
  }
  const { url, cookie } = event.data.start;
  const latencies: Promise<number>[] = [];
  const begin = performance.now();
  let sent = 0;
  let running = true;
  const stopped = new Promise<void>((resolve) => (stop = resolve)).then(() => (running = false));
  while (running) {
    const due = begin + sent * INTERVAL_MS;
    while (performance.now() >= due + 0 && sent <= (performance.now() - begin) / INTERVAL_MS) {
      const at = begin + sent * INTERVAL_MS;
      sent++;
      latencies.push(
        fetch(url, { headers: { cookie } })
          .then((response) => response.arrayBuffer())
          .then(() => performance.now() - at),
      );
    }
    await Promise.race([stopped, new Promise((resolve) => setTimeout(resolve, INTERVAL_MS))]);
  }
  self.postMessage(await Promise.all(latencies));
};
export {};
