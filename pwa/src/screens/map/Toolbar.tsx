import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { ConfirmButton } from '../../ui/ConfirmButton';
import { useMediaQuery } from '../../ui/useMediaQuery';
import { isEnabled, visibleActions, type MapAction, type MapActionContext } from './actions';

/** A phone's map editor (map.css lays the screen out the same way below this width). */
export const MAP_PHONE = '(max-width: 700px)';

const path = (d: string) => <path d={d} />;
/** The phone row's icons (24 px, drawn in the button's colour); each button keeps its label as its name. */
const ICONS: Record<string, ReactNode> = {
  'tool-select': path('M6 3l13 8-6 1.5L10 19z'),
  'tool-area': path('M4 8l7-5 9 5-2 12H6z'),
  'tool-road': path('M3 20l6-8 6 3 6-11'),
  'tool-zone': (
    <>
      <circle cx="12" cy="12" r="8" />
      <circle cx="12" cy="12" r="1" />
    </>
  ),
  'tool-object': (
    <>
      {path('M12 21s-6-6.2-6-11a6 6 0 0 1 12 0c0 4.8-6 11-6 11z')}
      <circle cx="12" cy="10" r="2" />
    </>
  ),
  undo: path('M9 14L4 9l5-5M4 9h10a6 6 0 0 1 0 12h-3'),
  more: (
    <>
      <circle cx="5" cy="12" r="1.5" />
      <circle cx="12" cy="12" r="1.5" />
      <circle cx="19" cy="12" r="1.5" />
    </>
  ),
};

const Icon = ({ id }: { id: string }) => (
  <svg
    viewBox="0 0 24 24"
    width="24"
    height="24"
    fill="none"
    stroke="currentColor"
    strokeWidth="2"
    strokeLinecap="round"
    strokeLinejoin="round"
    aria-hidden="true"
  >
    {ICONS[id]}
  </svg>
);

function ActionButton({ action, ctx, onDone, icon = false }: { action: MapAction; ctx: MapActionContext; onDone?: () => void; icon?: boolean }) {
  const pressed = action.pressed?.(ctx);
  if (action.confirm)
    return (
      <ConfirmButton
        question={action.confirm.question}
        action={action.label}
        confirm={action.confirm.yes}
        buttonClass="map-tool"
        title={action.label}
        disabled={!isEnabled(action, ctx)}
        onConfirm={() => {
          // Still allowed when answered (the project may have become busy meanwhile).
          if (isEnabled(action, ctx)) action.perform(ctx);
          onDone?.();
        }}
      />
    );
  return (
    <button
      type="button"
      className={`map-tool${icon ? ' map-icon' : ''}${pressed ? ' on' : ''}`}
      aria-pressed={pressed === undefined ? undefined : pressed}
      aria-label={icon ? action.label : undefined}
      title={action.keys ? `${action.label} (${action.keys})` : action.label}
      disabled={!isEnabled(action, ctx)}
      onClick={() => {
        action.perform(ctx);
        onDone?.();
      }}
    >
      {icon ? <Icon id={action.id} /> : action.label}
    </button>
  );
}

/** A drop-down of actions (generate roads, optimise); closes after a choice. */
function ActionMenu({ label, actions, ctx }: { label: string; actions: MapAction[]; ctx: MapActionContext }) {
  const details = useRef<HTMLDetailsElement>(null);
  if (actions.length === 0) return null;
  return (
    <details className="map-menu-drop" ref={details}>
      <summary className="map-tool">{label}</summary>
      <div className="map-menu-items" role="group" aria-label={label}>
        {actions.map((action) => (
          <ActionButton key={action.id} action={action} ctx={ctx} onDone={() => details.current?.removeAttribute('open')} />
        ))}
      </div>
    </details>
  );
}

/**
 * «Ещё» on a phone: the actions off the row, grouped as the computer's toolbar has them; closes on a
 * choice, Escape or a tap elsewhere (as the markup screen's «Ещё»).
 */
function MoreMenu({ actions, ctx }: { actions: MapAction[]; ctx: MapActionContext }) {
  const [open, setOpen] = useState(false);
  const id = useId();
  const root = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setOpen(false);
    };
    const onPointer = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    window.addEventListener('keydown', onKey);
    document.addEventListener('pointerdown', onPointer);
    return () => {
      window.removeEventListener('keydown', onKey);
      document.removeEventListener('pointerdown', onPointer);
    };
  }, [open]);
  const close = () => setOpen(false);
  const at = (place: MapAction['place']) => actions.filter((a) => a.place === place);
  const group = (label: string, items: MapAction[]) =>
    items.length > 0 && (
      <div className="map-more-group" role="group" aria-label={label}>
        <span className="map-more-title">{label}</span>
        {items.map((action) => (
          <ActionButton key={action.id} action={action} ctx={ctx} onDone={close} />
        ))}
      </div>
    );
  // A tool chosen from the list (remove) shows on «Ещё» itself.
  const toolOn = actions.some((a) => a.place === 'tools' && a.pressed?.(ctx));
  return (
    <div className="map-more" ref={root}>
      <button
        type="button"
        className={`map-tool map-icon${toolOn ? ' on' : ''}`}
        aria-label="Ещё"
        title="Ещё"
        aria-expanded={open}
        aria-controls={id}
        data-testid="map-more"
        onClick={() => setOpen(!open)}
      >
        <Icon id="more" />
      </button>
      {open && (
        <div className="map-more-list" id={id} role="group" aria-label="Другие инструменты">
          {[...at('tools'), ...at('history'), ...at('view')].map((action) => (
            <ActionButton key={action.id} action={action} ctx={ctx} onDone={close} />
          ))}
          {group('Построить дороги', at('generate'))}
          {group('Оптимизировать', at('optimise'))}
        </div>
      )}
    </div>
  );
}

/** The toolbar (spec 02 "Map editor"), generated from actions.ts; on a phone one row (phoneRow) and «Ещё». */
export function Toolbar({ ctx }: { ctx: MapActionContext }) {
  const actions = visibleActions(ctx);
  const phone = useMediaQuery(MAP_PHONE);
  const at = (place: MapAction['place']) => actions.filter((a) => a.place === place);
  if (phone && ctx.canWrite)
    return (
      <div className="map-toolbar map-toolbar-phone" role="toolbar" aria-label="Инструменты карты" data-testid="map-toolbar">
        <div className="visually-hidden">
          <h1>Редактор карты</h1>
        </div>
        {actions
          .filter((a) => a.phoneRow)
          .map((action) => (
            <ActionButton key={action.id} action={action} ctx={ctx} icon />
          ))}
        <MoreMenu actions={actions.filter((a) => !a.phoneRow)} ctx={ctx} />
      </div>
    );
  return (
    <div className="map-toolbar" role="toolbar" aria-label="Инструменты карты" data-testid="map-toolbar">
      <div className="map-title">
        <h1>Редактор карты</h1>
      </div>
      {at('tools').map((action) => (
        <ActionButton key={action.id} action={action} ctx={ctx} />
      ))}
      <ActionMenu label="Построить дороги" actions={at('generate')} ctx={ctx} />
      <ActionMenu label="Оптимизировать" actions={at('optimise')} ctx={ctx} />
      {at('history').map((action) => (
        <ActionButton key={action.id} action={action} ctx={ctx} />
      ))}
      {at('view').map((action) => (
        <ActionButton key={action.id} action={action} ctx={ctx} />
      ))}
      {!ctx.canWrite && <span className="map-readonly">Только просмотр</span>}
    </div>
  );
}
