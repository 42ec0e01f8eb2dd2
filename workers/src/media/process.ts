import { closeSync } from 'node:fs';
import type { ProcessCaps } from './limits';

/** How a capped process ended. */
export interface CappedExit {
  code: number;
  /** The last of its error output (at most 64 KB kept). */
  stderr: string;
  /** Why it was stopped, in plain Russian, when a cap stopped it (time or memory); null otherwise. */
  overCap: string | null;
}

export interface CappedProcess {
  stdout: ReadableStream<Uint8Array>;
  /** The extra output pipes asked for, at file descriptors 3, 4, … of the process (`pipe:3` in ffmpeg). Read each to its end or cancel it. */
  outputs: ReadableStream<Uint8Array>[];
  finished: Promise<CappedExit>;
  kill(): void;
}

let prlimitPath: string | null | undefined;
let nicePath: string | null | undefined;

const megabytes = (bytes: number) => Math.round(bytes / 1024 ** 2).toLocaleString('ru-RU');

/** What a process out of address space says (ffmpeg, x264, the dynamic loader). */
const OUT_OF_MEMORY = /cannot allocate memory|malloc of size \d+ failed|failed to map segment|out of memory|bad_alloc/i;

/**
 * An extra output pipe of a child as a stream. Bun leaves such a descriptor open (it is not the
 * child's stdout): the stream closes it once read to the end or cancelled. Reading pulls from the
 * pipe only as the reader asks, so a slow reader holds the writer back instead of filling memory.
 */
function outputPipe(fd: number): ReadableStream<Uint8Array> {
  const reader = Bun.file(fd).stream().getReader();
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    reader.releaseLock();
    closeSync(fd);
  };
  let cancelled = false;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        let result: Awaited<ReturnType<typeof reader.read>>;
        try {
          result = await reader.read();
        } catch (error) {
          close();
          if (!cancelled) controller.error(error);
          return;
        }
        if (cancelled) return;
        if (result.done) {
          close();
          controller.close();
        } else controller.enqueue(result.value);
      },
      async cancel() {
        cancelled = true;
        if (closed) return;
        await reader.cancel();
        close();
      },
    },
    { highWaterMark: 0 },
  );
}

/**
 * Starts a media tool under `caps`: `prlimit --as` bounds its address space (util-linux, on every
 * Debian; without it the process runs without a memory cap), `nice` lowers its priority, a timer kills it
 * at its wall time. glibc's malloc is held to two arenas: each thread's own 64 MB arena would
 * otherwise count against the address space without being used. `extraOutputs` more output pipes
 * (descriptors 3, 4, …) come back as `outputs`: one process can write several streams at once.
 */
export function spawnCapped(command: string, args: string[], caps: ProcessCaps, extraOutputs = 0): CappedProcess {
  if (prlimitPath === undefined) prlimitPath = Bun.which('prlimit');
  if (nicePath === undefined) nicePath = Bun.which('nice');
  const prefix = [
    ...(caps.niceness > 0 && nicePath ? [nicePath, '-n', String(caps.niceness)] : []),
    ...(prlimitPath ? [prlimitPath, `--as=${Math.ceil(caps.memoryBytes)}`, '--'] : []),
  ];
  const child = Bun.spawn([...prefix, command, ...args], {
    stdio: ['ignore', 'pipe', 'pipe', ...Array.from({ length: extraOutputs }, () => 'pipe' as const)],
    env: { ...process.env, MALLOC_ARENA_MAX: '2' },
  });
  const outputs = Array.from({ length: extraOutputs }, (_, i) => outputPipe(child.stdio[3 + i] as unknown as number));
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    child.kill('SIGKILL');
  }, caps.wallSeconds * 1000);
  const stderr = (async () => {
    let text = '';
    const decoder = new TextDecoder();
    for await (const chunk of child.stderr) text = (text + decoder.decode(chunk, { stream: true })).slice(-65_536);
    return text;
  })();
  const finished = Promise.all([child.exited, stderr]).then(([code, text]): CappedExit => {
    clearTimeout(timer);
    let overCap: string | null = null;
    if (timedOut) overCap = `обработка не уложилась в отведённое время (${Math.round(caps.wallSeconds).toLocaleString('ru-RU')} с) и остановлена`;
    else if (code !== 0 && prlimitPath && (OUT_OF_MEMORY.test(text) || ['SIGSEGV', 'SIGABRT', 'SIGBUS'].includes(String(child.signalCode))))
      overCap = `обработке не хватило отведённой памяти (${megabytes(caps.memoryBytes)} МБ) и она остановлена`;
    return { code, stderr: text, overCap };
  });
  return { stdout: child.stdout, outputs, finished, kill: () => child.kill() };
}
