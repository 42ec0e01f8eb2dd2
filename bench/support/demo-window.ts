import type { Database } from 'bun:sqlite';

const DAY_MS = 86_400_000;

/**
 * Copies the demo's two days of markups of `structureId` to every other day pair of 62 days (without
 * their videos), so that a 62-day report window is full; returns the structure's markup rows.
 */
export function spreadDemoMarkups(db: Database, structureId: number): number {
  db.exec('PRAGMA busy_timeout = 10000');
  const columns = 'structure_id, operation_id, workplace_id, employee_id, comment, author_id, source, model_id, created_at, updated_at';
  for (let shift = -30; shift <= 30; shift++) {
    if (shift === 0) continue;
    const ms = shift * 2 * DAY_MS;
    db.run(
      `INSERT INTO markups (${columns}, start_time, end_time, video_id) SELECT ${columns}, start_time + ${ms}, end_time + ${ms}, NULL FROM markups WHERE structure_id = ? AND start_time >= ? AND start_time < ?`,
      [structureId, Date.UTC(2026, 10, 15, 21), Date.UTC(2026, 10, 17, 21)],
    );
  }
  return (db.query('SELECT count(*) AS n FROM markups WHERE structure_id = ?').get(structureId) as { n: number }).n;
}
