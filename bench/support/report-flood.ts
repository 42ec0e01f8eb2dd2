/**
 * A flood of heavy requests from a process of its own (issue 47, finding 5: the flood's own work must
 * not share the bench process with the bystander it measures). For each session cookie given, keeps
 * `inFlight` GETs of `path` going: each answer (read to the end) or refusal is followed at once by the
 * next. Runs until a line arrives on stdin, then prints the answers' statuses as JSON and exits.
 *   bun bench/support/report-flood.ts <base url> <path> <in flight per session> <cookie>…
 */
const [baseUrl, path, inFlightText, ...cookies] = process.argv.slice(2);
if (!baseUrl || !path || !inFlightText || !cookies.length) throw new Error('usage: report-flood.ts <base url> <path> <in flight> <cookie>…');
const inFlight = Number(inFlightText);
const statuses: Record<string, number> = {};
let running = true;

async function keepGoing(cookie: string) {
  while (running) {
    const status = await fetch(`${baseUrl}${path}`, { headers: { cookie } }).then(
      async (response) => (await response.arrayBuffer(), String(response.status)),
      () => 'error',
    );
    statuses[status] = (statuses[status] ?? 0) + 1;
    // After a refusal a short pause, as a client would make, instead of spinning.
    if (status === '429') await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

const loops = cookies.flatMap((cookie) => Array.from({ length: inFlight }, () => keepGoing(cookie)));
console.error('flood started');
for await (const _ of console) break;
running = false;
await Promise.all(loops);
console.log(JSON.stringify(statuses));
export {};
