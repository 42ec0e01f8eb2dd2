// `npm run workers`: the background job queue as its own process, on the same DATA_DIR as a server
// started with NORMA_WORKERS=0 (see docs/architecture.md, «Фоновые задачи»).
import { spawn } from 'node:child_process';
import { bun, ensureInstalled, root } from './lib.mjs';

ensureInstalled();
const workers = spawn(bun, ['api/src/worker-main.ts'], { cwd: root, stdio: 'inherit', env: process.env });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => workers.kill(signal));
workers.on('exit', (code) => process.exit(code ?? 0));
