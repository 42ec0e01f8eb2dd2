import { useEffect, useMemo } from 'react';
import { Link } from 'wouter';
import type { LiveBoard } from '../../api/types';
import { LiveBoardSession, BOARD_LOST, type BoardTarget } from '../../state/liveBoard';
import { useSession } from '../../state/session-store';
import { Banner } from '../../ui/Banner';
import { BoardShare } from './BoardShare';
import './live-board.css';

/*
 * «Смена сейчас» (issue 45, docs/live-cameras.md «Доска»): one card per workplace with its current
 * operation, the shift so far and the cameras, pushed by the server. Big type, readable on a 360 px
 * phone and on a 1920 px wall screen; the guest's link shows the same board read-only.
 */

type Workplace = LiveBoard['workplaces'][number];
type Camera = LiveBoard['cameras'][number];

const TYPE_LABELS: Record<string, string> = {
  main: 'основная',
  aux: 'вспомогательная',
  pz: 'подготовительно-заключительная',
  service: 'обслуживание',
  move: 'перемещение',
  rest: 'отдых',
  idle: 'простой',
};
const STATE_LABELS: Record<Camera['state'], string> = { online: 'в сети', connecting: 'подключается', offline: 'не в сети' };

function timeOf(ms: number, timeZone: string, seconds = false): string {
  return new Intl.DateTimeFormat('ru-RU', { timeZone, hour: '2-digit', minute: '2-digit', ...(seconds ? { second: '2-digit' } : {}) }).format(ms);
}

/** 2652 s → «44 мин», 9000 s → «2 ч 30 мин». */
function duration(seconds: number): string {
  const minutes = Math.round(seconds / 60);
  const hours = Math.floor(minutes / 60);
  if (hours === 0) return `${minutes} мин`;
  return minutes % 60 === 0 ? `${hours} ч` : `${hours} ч ${minutes % 60} мин`;
}

const percent = (value: number | null) => (value === null ? '—' : `${new Intl.NumberFormat('ru-RU', { maximumFractionDigits: 0 }).format(value)} %`);

function WorkplaceCard({ place, board }: { place: Workplace; board: LiveBoard }) {
  const { current, shift } = place;
  const cameras = board.cameras.filter((c) => place.camera_ids.includes(c.camera_id));
  return (
    <article
      className={`card board-card board-${current?.operation_type ?? 'none'}`}
      data-testid="board-workplace"
      aria-labelledby={`board-place-${place.workplace_id}`}
    >
      <h2 id={`board-place-${place.workplace_id}`} className="board-place">
        {place.name}
      </h2>
      {current ? (
        <div className="board-current">
          <p className="board-operation" data-testid="board-operation">
            {current.operation_name}
          </p>
          <p className="board-since">
            {TYPE_LABELS[current.operation_type] ?? current.operation_type} · с {timeOf(current.since, board.time_zone)} ·{' '}
            <span data-testid="board-source">{current.source === 'model' ? 'модель' : 'человек'}</span>
            {current.employee_name && <> · {current.employee_name}</>}
          </p>
        </div>
      ) : (
        <p className="board-operation muted" data-testid="board-operation">
          Нет разметки за смену
        </p>
      )}
      <dl className="board-figures">
        <div>
          <dt>Работа</dt>
          <dd data-testid="board-work">{duration(shift.work_seconds)}</dd>
        </div>
        <div>
          <dt>Потери</dt>
          <dd>{duration(shift.loss_seconds)}</dd>
        </div>
        <div>
          <dt>Отдых</dt>
          <dd>{duration(shift.rest_seconds)}</dd>
        </div>
        <div>
          <dt>Загрузка</dt>
          <dd>{percent(shift.observed_seconds > 0 ? shift.load_percent : null)}</dd>
        </div>
        <div>
          <dt>Норма</dt>
          <dd>{percent(shift.norm_fulfilment_percent)}</dd>
        </div>
      </dl>
      {shift.model_seconds > 0 && <p className="muted small">Из них по непроверенной разметке модели: {duration(shift.model_seconds)}</p>}
      {cameras.length > 0 && (
        <p className="board-place-cameras small">
          {cameras.map((c) => (
            <span key={c.camera_id} className={`board-camera-state board-camera-${c.state}`}>
              {c.name}: {STATE_LABELS[c.state]}
            </span>
          ))}
        </p>
      )}
    </article>
  );
}

function CamerasCard({ board }: { board: LiveBoard }) {
  if (board.cameras.length === 0 && board.alerts.length === 0) return null;
  return (
    <section className="card board-cameras" aria-labelledby="board-cameras-title">
      <h2 id="board-cameras-title">Камеры</h2>
      {board.alerts.map((alert) => (
        <Banner key={alert} kind="error" text={alert} />
      ))}
      <ul>
        {board.cameras.map((c) => (
          <li key={c.camera_id} data-testid="board-camera">
            <span className={`board-camera-state board-camera-${c.state}`}>{STATE_LABELS[c.state]}</span> {c.name}
            <span className="muted">
              {' '}
              · последний кадр {c.last_frame_at === null ? 'ещё не получен' : timeOf(c.last_frame_at, board.time_zone, true)}
              {c.frame_rate !== null && <> · {String(Math.round(c.frame_rate * 10) / 10).replace('.', ',')} к/с</>}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The board of a session: its header (shift, connection), the workplaces and the cameras. */
function Board({ session, share }: { session: LiveBoardSession; share?: number }) {
  useSession(session);
  const { board, connection, message } = session;
  const title = board ? `Смена сейчас — ${board.structure_name}` : 'Смена сейчас';
  return (
    <section className="screen live-board" aria-busy={connection === 'connecting'}>
      <header className="board-header">
        <h1>{title}</h1>
        {board && (
          <p className="board-shift">
            {board.shift_name
              ? `${board.shift_name}, с ${timeOf(board.from_time, board.time_zone)}`
              : `Вне смены, с ${timeOf(board.from_time, board.time_zone)}`}{' '}
            · обновлено {timeOf(board.now, board.time_zone, true)}
            {board.read_only && <> · только просмотр</>}
          </p>
        )}
        <p className={`board-connection board-connection-${connection}`} role="status" data-testid="board-connection">
          {connection === 'live' ? 'на связи' : connection === 'connecting' ? 'подключение…' : connection === 'lost' ? 'нет связи' : 'доска закрыта'}
        </p>
        {share !== undefined && <BoardShare structureId={share} />}
      </header>
      {connection === 'lost' && <Banner kind="info" text={message ?? BOARD_LOST} />}
      {connection === 'ended' && <Banner text={message} />}
      {connection !== 'ended' && message && connection !== 'lost' && <Banner text={message} />}
      {connection === 'connecting' && !board && <p>Загрузка…</p>}
      {board && connection !== 'ended' && (
        <>
          {board.workplaces.length === 0 && <p className="muted">В этой структурной единице нет рабочих мест.</p>}
          <div className="board-grid">
            {board.workplaces.map((place) => (
              <WorkplaceCard key={place.workplace_id} place={place} board={board} />
            ))}
          </div>
          <CamerasCard board={board} />
        </>
      )}
    </section>
  );
}

/** A session for the screen's lifetime: opened on mount (when the address names a board), closed when the screen is left. */
function useBoardSession(target: BoardTarget, id: string, valid: boolean): LiveBoardSession {
  // eslint-disable-next-line react-hooks/exhaustive-deps -- one session per board address
  const session = useMemo(() => new LiveBoardSession(target), [id]);
  useEffect(() => {
    if (!valid) return;
    session.start();
    return () => session.stop();
  }, [session, valid]);
  return session;
}

/** «Смена сейчас» of a structure, for a signed-in user (/live/{structureId}). */
export function LiveBoardScreen({ structureId }: { structureId?: string }) {
  const id = /^[1-9]\d{0,15}$/.test(structureId ?? '') ? Number(structureId) : null;
  const session = useBoardSession({ structureId: id ?? 0 }, `s${id}`, id !== null);
  if (id === null) {
    return (
      <section className="screen live-board">
        <h1>Смена сейчас</h1>
        <Banner text="Неверный адрес: нет номера структурной единицы." />
      </section>
    );
  }
  return (
    <>
      <nav className="board-back small">
        <Link href={`/projects/${id}`}>← К проектам</Link>
      </nav>
      <Board session={session} share={id} />
    </>
  );
}

/** The board by a share link, read-only and without a login (/live-share/{key}). */
export function SharedLiveBoardScreen({ shareKey }: { shareKey?: string }) {
  const key = shareKey ?? '';
  // A key is base64url of at least 128 bits; anything shorter is no key (and is not sent anywhere).
  const wellFormed = /^[A-Za-z0-9_-]{22,128}$/.test(key);
  const session = useBoardSession({ key }, `k${key}`, wellFormed);
  if (!wellFormed) {
    return (
      <section className="screen live-board">
        <h1>Смена сейчас</h1>
        <Banner text="Ссылка недействительна: в ней нет ключа доступа." />
      </section>
    );
  }
  return <Board session={session} />;
}
