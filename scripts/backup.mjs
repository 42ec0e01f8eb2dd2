// `npm run backup -- <file>`: backup of the SQLite database in DATA_DIR, or of the PostgreSQL one with DATABASE_URL (api/src/db/backup*.ts; docs/deployment.md).
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { bun, ensureInstalled, root } from './lib.mjs';

ensureInstalled();
// npm runs scripts from the project root: a relative file name means the folder the command was typed in.
const args = process.argv.slice(2).map((a) => (a.startsWith('--') ? a : resolve(process.env.INIT_CWD ?? process.cwd(), a)));
const child = spawn(bun, ['api/src/db/backup-main.ts', 'backup', ...args], { cwd: root, stdio: 'inherit', env: process.env });
child.on('exit', (code) => process.exit(code ?? 1));
