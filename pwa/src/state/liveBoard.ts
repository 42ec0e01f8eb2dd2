import { api, ApiCallError } from '../api/client';
import { apiUrl } from '../api/paths';
import type { LiveBoard } from '../api/types';
import { SessionStore } from './session-store';

/**
 * The live board «Смена сейчас» of a structure (issue 45, docs/live-cameras.md «Доска»): the
 * server pushes the board over Server-Sent Events (GET /api/v1/live_board/events); this store holds
 * the last state and the connection. The browser's EventSource reconnects by itself after a cut
 * (the server asks for 2 s); when it gives up (the server refused the stream, or is not there), the
 * board asks GET /api/v1/live_board why — a refusal (a revoked link, a session ended) ends the board
 * with the server's Russian message; anything else is «нет связи» and a new try, 1, 2, 4 … 30 s apart.
 */

export type BoardTarget = { structureId: number } | { key: string };
/** connecting: the first state is on its way; live: pushes arrive; lost: no connection, trying again; ended: refused or closed for good. */
export type BoardConnection = 'connecting' | 'live' | 'lost' | 'ended';

export const BOARD_LOST = 'Нет связи с сервером: показано последнее полученное состояние. Подключаемся снова…';
const RETRY_MAX_MS = 30_000;

export class LiveBoardSession extends SessionStore {
  board: LiveBoard | null = null;
  connection: BoardConnection = 'connecting';
  /** Why the board ended, or a passing failure of the server (Russian, from the server). */
  message: string | null = null;
  /** When the last state arrived (this device's clock, ms). */
  receivedAt: number | null = null;

  private source: EventSource | null = null;
  private retry: ReturnType<typeof setTimeout> | null = null;
  private attempts = 0;
  private stopped = false;

  constructor(private readonly target: BoardTarget) {
    super();
  }

  private query() {
    return 'key' in this.target ? { key: this.target.key } : { structure_id: this.target.structureId };
  }

  /** Opens the stream (again). */
  start(): void {
    this.stopped = false;
    this.source?.close();
    const source = new EventSource(apiUrl('/api/v1/live_board/events', { query: this.query() as never }), { withCredentials: true });
    this.source = source;
    source.addEventListener('board', (event) => this.received(JSON.parse((event as MessageEvent<string>).data) as LiveBoard));
    source.addEventListener('failure', (event) => {
      this.message = (JSON.parse((event as MessageEvent<string>).data) as { message: string }).message;
      this.emit();
    });
    source.addEventListener('closed', (event) => {
      this.end((JSON.parse((event as MessageEvent<string>).data) as { message: string }).message);
    });
    source.onerror = () => {
      if (this.source !== source || this.stopped) return;
      this.connection = 'lost';
      this.emit();
      // CONNECTING: the browser tries again by itself. CLOSED: it gave up — ask why.
      if (source.readyState === EventSource.CLOSED) void this.askWhy();
    };
  }

  /** Closes the stream for good (the screen was left). */
  stop(): void {
    this.stopped = true;
    this.source?.close();
    this.source = null;
    if (this.retry) clearTimeout(this.retry);
    this.retry = null;
  }

  private received(board: LiveBoard) {
    this.board = board;
    this.connection = 'live';
    this.message = null;
    this.receivedAt = Date.now();
    this.attempts = 0;
    this.emit();
  }

  private end(message: string) {
    this.stop();
    this.connection = 'ended';
    this.message = message;
    this.emit();
  }

  /** The stream was refused or cut for good: a refusal ends the board, anything else is tried again later. */
  private async askWhy(): Promise<void> {
    try {
      const board = await api.get('/api/v1/live_board', { query: this.query() as never, quiet: true });
      if (this.stopped) return;
      // The board may be read, but its stream was not kept: shown, still «нет связи» until a stream is back.
      this.received(board);
      this.connection = 'lost';
      this.emit();
    } catch (error) {
      if (this.stopped) return;
      const status = error instanceof ApiCallError ? error.status : 0;
      if (status === 400 || status === 401 || status === 403 || status === 404) {
        this.end(error instanceof Error ? error.message : String(error));
        return;
      }
      // A network failure, 429 (too many boards open) or 5xx: no connection for now.
      this.message = status === 429 && error instanceof Error ? error.message : null;
      this.connection = 'lost';
      this.emit();
    }
    this.source?.close();
    const delay = Math.min(RETRY_MAX_MS, 1000 * 2 ** this.attempts++);
    this.retry = setTimeout(() => {
      this.retry = null;
      if (!this.stopped) this.start();
    }, delay);
  }
}
