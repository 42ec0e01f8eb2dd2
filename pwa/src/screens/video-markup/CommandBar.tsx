import { useEffect, useId, useRef, useState } from 'react';
import { performAction, toolbarActions, type Action, type ActionContext } from './actions';

interface Props {
  position: 'top' | 'bottom';
  ctx: ActionContext;
  busy: boolean;
  /**
   * A tablet or a phone (TOUCH_LAYOUT): only the primary actions (save, finish) as buttons, the
   * rest and the keys' help under «Ещё», so the video and the operation buttons fit the screen.
   */
  compact?: boolean;
}

/** The command bar above and below the editor: the actions marked `toolbar` in actions.ts, as buttons. */
export function CommandBar({ position, ctx, busy, compact = false }: Props) {
  const shown = toolbarActions(ctx.readOnly);
  const button = (action: Action) => (
    <button
      key={action.id}
      type="button"
      className={action.toolbar?.primary ? 'button' : 'button secondary'}
      disabled={action.toolbar?.disabledWhileBusy && busy}
      onClick={() => performAction(action.id, ctx)}
    >
      {action.label}
    </button>
  );
  if (!compact) return <div className={`command-bar ${position}`}>{shown.map(button)}</div>;
  return (
    <div className={`command-bar compact ${position}`}>
      {shown.filter((action) => action.toolbar?.primary).map(button)}
      <MoreMenu ctx={ctx} busy={busy} actions={shown.filter((action) => !action.toolbar?.primary)} />
    </div>
  );
}

/** «Ещё»: the toolbar's other actions and the keys' help; closes on a choice, Escape or a tap elsewhere. */
function MoreMenu({ ctx, busy, actions }: { ctx: ActionContext; busy: boolean; actions: Action[] }) {
  const [open, setOpen] = useState(false);
  const id = useId();
  const root = useRef<HTMLDivElement>(null);
  const toggle = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      // The markup keys (Escape among them) are not also run for this press.
      event.stopPropagation();
      setOpen(false);
      toggle.current?.focus();
    };
    const onPointer = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    window.addEventListener('keydown', onKey, true);
    document.addEventListener('pointerdown', onPointer);
    return () => {
      window.removeEventListener('keydown', onKey, true);
      document.removeEventListener('pointerdown', onPointer);
    };
  }, [open]);
  const run = (actionId: string) => {
    setOpen(false);
    performAction(actionId, ctx);
  };
  return (
    <div className="more-menu" ref={root}>
      <button
        ref={toggle}
        type="button"
        className="button secondary"
        aria-expanded={open}
        aria-controls={id}
        data-testid="markup-more"
        onClick={() => setOpen(!open)}
      >
        Ещё <span aria-hidden="true">▾</span>
      </button>
      {open && (
        <div className="more-menu-list" id={id} role="group" aria-label="Другие действия">
          {actions.map((action) => (
            <button
              key={action.id}
              type="button"
              className="button secondary"
              disabled={action.toolbar?.disabledWhileBusy && busy}
              onClick={() => run(action.id)}
            >
              {action.label}
            </button>
          ))}
          <button type="button" className="button secondary" onClick={() => run('help')}>
            Клавиши (?)
          </button>
        </div>
      )}
    </div>
  );
}
