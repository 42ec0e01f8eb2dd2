import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..', '..');

async function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.on('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => done(port));
    });
  });
}

/** Starts bench/support/bare-server.ts in its own process; resolves when it listens. */
export async function startBareServer(mode: 'whoami' | 'range', path: string): Promise<{ url: string; pid: number; stop(): Promise<void> }> {
  const port = await freePort();
  const child = Bun.spawn([join(root, 'node_modules', '.bin', 'bun'), join(root, 'bench', 'support', 'bare-server.ts'), mode, path, String(port)], {
    stdout: 'pipe',
    stderr: 'inherit',
  });
  const reader = child.stdout.getReader();
  const { value } = await reader.read();
  if (!new TextDecoder().decode(value).includes('ready')) throw new Error(`bare ${mode} server did not start`);
  return {
    url: `http://127.0.0.1:${port}`,
    pid: child.pid,
    async stop() {
      child.kill();
      await child.exited;
    },
  };
}

const CLOCK_TICKS_PER_SECOND = 100;

/**
 * CPU time a process has used so far, user and system, all threads, in milliseconds (Linux
 * /proc/<pid>/stat, 10 ms resolution). On a shared machine the CPU time a server spends per
 * request hardly depends on how much of the machine other programs take; its throughput does.
 */
export function cpuMillisecondsOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name (which may hold spaces): state is field 3, utime 14, stime 15.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND;
}
