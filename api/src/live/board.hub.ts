import type { Db } from '../db/database';
import { tooManyRequests } from '../http/errors';
import { boardCameras, boardFigures, type BoardDeps, type LiveBoardReply } from './board';
import { markupSignature } from './board.service';

/**
 * The pushes of the live board (issue 45, docs/live-cameras.md «Доска»): one poller per structure
 * watched by anyone, whatever the number of screens. Every tick (1 s) it reads two cheap things —
 * a signature of the structure's labels of the window (count, last id, last edit) and the health of
 * its cameras (health.ts) — and computes the figures again only when the signature moved (or once a minute, as
 * the shift goes on). A state that differs from the last one sent is pushed to every screen.
 *
 * Why a poll of the database rather than a hook on the writes: labels are written by this process
 * (people), by the worker process (a model's layer) and health by recorders that may run on other
 * machines; only the shared database sees them all. A tick of two indexed reads per watched
 * structure costs little, and bounds the lag label stored → pushed at about one tick plus the figures.
 */

export const BOARD_TICK_MS = 1000;
/** The figures are computed again at least this often while someone watches (the shift goes on). */
const FIGURES_REFRESH_MS = 60_000;
/** Screens one user (or one share key) may hold open at once; one more is refused (429). */
export const BOARD_STREAMS_PER_USER = 5;
export const BOARD_STREAMS_PER_KEY = 10;

export const TOO_MANY_BOARD_STREAMS = (max: number) =>
  `Открыто слишком много досок «Смена сейчас» (не больше ${max} одновременно). Закройте лишние вкладки и повторите.`;
export const BOARD_COMPUTE_FAILED = 'Не удалось обновить доску «Смена сейчас». Повторим через секунду.';

type Figures = Awaited<ReturnType<typeof boardFigures>>;

export interface BoardSubscriber {
  /** `user:<id>` or `key:<hash>`: what the limit counts. */
  principal: string;
  readOnly: boolean;
  push: (state: LiveBoardReply) => void;
  fail: (message: string) => void;
}

interface Watch {
  subscribers: Set<BoardSubscriber>;
  timer: ReturnType<typeof setInterval>;
  busy: boolean;
  signature: string | null;
  figures: Figures | null;
  figuresAt: number;
  sent: string | null;
  state: Omit<LiveBoardReply, 'read_only'> | null;
}

export class BoardHub {
  private readonly watches = new Map<number, Watch>();
  private readonly open = new Map<string, number>();

  constructor(
    private readonly deps: BoardDeps,
    private readonly tickMs = BOARD_TICK_MS,
  ) {}

  /** Subscribes a screen (429 past the limit of its user or key); it gets the state at once, then each change. Returns the unsubscribe. */
  subscribe(structureId: number, subscriber: BoardSubscriber, limit: number): () => void {
    const held = this.open.get(subscriber.principal) ?? 0;
    if (held >= limit) throw tooManyRequests(TOO_MANY_BOARD_STREAMS(limit), 10);
    this.open.set(subscriber.principal, held + 1);
    let watch = this.watches.get(structureId);
    if (!watch) {
      const created: Watch = {
        subscribers: new Set(),
        timer: setInterval(() => void this.tick(structureId, created), this.tickMs),
        busy: false,
        signature: null,
        figures: null,
        figuresAt: 0,
        sent: null,
        state: null,
      };
      created.timer.unref?.();
      this.watches.set(structureId, created);
      watch = created;
    }
    watch.subscribers.add(subscriber);
    if (watch.state) subscriber.push({ ...watch.state, read_only: subscriber.readOnly });
    else void this.tick(structureId, watch);
    let done = false;
    return () => {
      if (done) return;
      done = true;
      const left = (this.open.get(subscriber.principal) ?? 1) - 1;
      if (left > 0) this.open.set(subscriber.principal, left);
      else this.open.delete(subscriber.principal);
      watch.subscribers.delete(subscriber);
      if (watch.subscribers.size === 0) {
        clearInterval(watch.timer);
        this.watches.delete(structureId);
      }
    };
  }

  /** One poll: the labels' signature and the cameras; the figures again when the labels changed; a push when the state changed. */
  private async tick(structureId: number, watch: Watch): Promise<void> {
    if (watch.busy) return;
    watch.busy = true;
    try {
      const now = Date.now();
      const from = watch.figures?.from_time ?? 0;
      const [signature, health] = await Promise.all([markupSignature(this.deps.db, structureId, from), boardCameras(this.deps, structureId, now)]);
      const stale = now - watch.figuresAt >= FIGURES_REFRESH_MS;
      if (!watch.figures || signature !== watch.signature || stale) {
        watch.figures = await boardFigures(this.deps.db, structureId, now);
        watch.figuresAt = now;
        // The window may have moved to a new shift: the signature is of the new one from the next tick.
        watch.signature = watch.figures.from_time === from ? signature : null;
      }
      const { now: _computed, ...figures } = watch.figures;
      const text = JSON.stringify({ figures, health });
      if (text === watch.sent) return;
      watch.sent = text;
      watch.state = { ...watch.figures, now, ...health };
      for (const s of watch.subscribers) s.push({ ...watch.state, read_only: s.readOnly });
    } catch (error) {
      console.error(`live board of structure ${structureId}:`, error);
      for (const s of watch.subscribers) s.fail(BOARD_COMPUTE_FAILED);
    } finally {
      watch.busy = false;
    }
  }
}

const hubs = new WeakMap<Db, BoardHub>();

/** The board hub of a database (one per API process and database). */
export function boardHub(deps: BoardDeps): BoardHub {
  let hub = hubs.get(deps.db);
  if (!hub) hubs.set(deps.db, (hub = new BoardHub(deps)));
  return hub;
}
