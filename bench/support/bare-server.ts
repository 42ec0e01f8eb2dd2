// The baselines of the API benchmarks: the least a server can do for the same answer, on the same
// data, in a process of its own (as Norma's is). Started by bench/*.bench.ts:
//   bun bench/support/bare-server.ts whoami <database file> <port>
//     GET /whoami: the session cookie's token → SHA-256 → one prepared join over the same session,
//     user, membership and organisation rows Norma reads; the same JSON shape. No signature check.
//   bun bench/support/bare-server.ts range <file> <port>
//     GET /video with a Range header: Bun.file(...).slice → 206.
import { Database } from 'bun:sqlite';
import { Hono } from 'hono';

const [mode, path, port] = process.argv.slice(2) as [string, string, string];
const app = new Hono();

if (mode === 'whoami') {
  const sqlite = new Database(path, { readonly: true });
  const lookup = sqlite.query<
    { firstName: string; lastName: string; username: string; role: string; organization_id: number; name: string; time_zone: string },
    [string]
  >(
    `SELECT u.firstName, u.lastName, u.username, m.role, m.organization_id, o.name, o.time_zone
       FROM session s JOIN user u ON u.id = s.userId JOIN memberships m ON m.user_id = u.id JOIN organizations o ON o.id = m.organization_id
      WHERE s.token = ?`,
  );
  app.get('/whoami', (c) => {
    const cookie = /better-auth\.session_token=([^;]+)/.exec(c.req.header('cookie') ?? '')?.[1];
    if (!cookie) return c.json({ error: { code: 'unauthorized', message: 'Вход не выполнен' } });
    const token = decodeURIComponent(cookie).split('.')[0]!;
    const row = lookup.get(new Bun.CryptoHasher('sha256').update(token).digest('hex'));
    if (!row) return c.json({ error: { code: 'unauthorized', message: 'Вход не выполнен' } });
    return c.json({
      first_name: row.firstName,
      last_name: row.lastName,
      login: row.username,
      role: row.role,
      organization: { id: row.organization_id, name: row.name, time_zone: row.time_zone },
    });
  });
} else if (mode === 'range') {
  const file = Bun.file(path);
  app.get('/video', (c) => {
    const match = /bytes=(\d+)-(\d+)/.exec(c.req.header('range') ?? '');
    if (!match) return new Response(file);
    const start = Number(match[1]);
    const end = Math.min(Number(match[2]), file.size - 1);
    return new Response(file.slice(start, end + 1), {
      status: 206,
      headers: { 'content-range': `bytes ${start}-${end}/${file.size}`, 'content-type': 'video/mp4', 'accept-ranges': 'bytes' },
    });
  });
} else {
  throw new Error(`unknown mode ${mode}`);
}

Bun.serve({ port: Number(port), fetch: app.fetch });
console.log('ready');
