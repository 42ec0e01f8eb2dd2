import { performAction, toolbarActions, type ActionContext } from './actions';

/** The command bar above and below the editor: the actions marked `toolbar` in actions.ts, as buttons. */
export function CommandBar({ position, ctx, busy }: { position: 'top' | 'bottom'; ctx: ActionContext; busy: boolean }) {
  return (
    <div className={`command-bar ${position}`}>
      {toolbarActions(ctx.readOnly).map((action) => (
        <button
          key={action.id}
          type="button"
          className={action.toolbar?.primary ? 'button' : 'button secondary'}
          disabled={action.toolbar?.disabledWhileBusy && busy}
          onClick={() => performAction(action.id, ctx)}
        >
          {action.label}
        </button>
      ))}
    </div>
  );
}
