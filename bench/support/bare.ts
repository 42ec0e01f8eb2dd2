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
export async function startBareServer(mode: 'whoami' | 'range', path: string): Promise<{ url: string; stop(): Promise<void> }> {
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
    async stop() {
      child.kill();
      await child.exited;
    },
  };
}
