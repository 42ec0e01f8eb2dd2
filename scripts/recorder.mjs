// `npm run recorder`: the camera-stream recorder as its own process, on the same DATA_DIR (or
// PostgreSQL) as a server; several may run on several machines, each camera held by one of them
// (docs/live-cameras.md).
import { spawn } from 'node:child_process';
import { bun, ensureInstalled, root } from './lib.mjs';

ensureInstalled();
const recorder = spawn(bun, ['api/src/live/recorder-main.ts'], { cwd: root, stdio: 'inherit', env: process.env });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => recorder.kill(signal));
recorder.on('exit', (code) => process.exit(code ?? 0));
