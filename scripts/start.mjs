// `npm start`: install what is missing, build, then serve API + PWA on http://localhost:3000.
// Migrations run and the demo organisation is seeded (first run only) by the server itself.
// First the Debian packages the server uses (scripts/system-deps.sh): as root the missing ones are
// installed; otherwise it stops naming them and the one command to run.
import { spawn } from 'node:child_process';
import { bun, ensureSystemPackages, prepare, root } from './lib.mjs';

ensureSystemPackages('start');
prepare();
const server = spawn(bun, ['api/src/main.ts'], { cwd: root, stdio: 'inherit', env: process.env });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code) => process.exit(code ?? 0));
