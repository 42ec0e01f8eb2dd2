import { useRef } from 'react';
import { ConfirmButton } from '../../ui/ConfirmButton';
import { isEnabled, visibleActions, type MapAction, type MapActionContext } from './actions';

function ActionButton({ action, ctx, onDone }: { action: MapAction; ctx: MapActionContext; onDone?: () => void }) {
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
      className={`map-tool${pressed ? ' on' : ''}`}
      aria-pressed={pressed === undefined ? undefined : pressed}
      title={action.keys ? `${action.label} (${action.keys})` : action.label}
      disabled={!isEnabled(action, ctx)}
      onClick={() => {
        action.perform(ctx);
        onDone?.();
      }}
    >
      {action.label}
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

/** The toolbar (spec 02 "Map editor"), generated from actions.ts. */
export function Toolbar({ ctx }: { ctx: MapActionContext }) {
  const actions = visibleActions(ctx);
  const at = (place: MapAction['place']) => actions.filter((a) => a.place === place);
  return (
    <div className="map-toolbar" role="toolbar" aria-label="Инструменты карты">
      <h1>Редактор карты</h1>
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
