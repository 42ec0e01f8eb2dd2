import { shortcutActions } from './actions';
import { OPERATION_KEYS } from './coding';
import type { OperationOption } from './OperationRows';

/** The `?` help, generated from the declared actions and the operation keys. */
export function HelpOverlay({ operations, onClose, readOnly = false }: { operations: OperationOption[]; onClose(): void; readOnly?: boolean }) {
  return (
    <div className="overlay" role="dialog" aria-modal="true" aria-labelledby="help-title" onClick={onClose}>
      <div className="card help" onClick={(e) => e.stopPropagation()}>
        <h2 id="help-title">Клавиши разметки</h2>
        <p className="muted">
          Клавиша операции начинает её на текущем моменте; клавиша следующей операции завершает текущую и начинает новую — так смену можно разметить прямо во
          время просмотра. Enter завершает текущую.
        </p>
        <div className="help-columns">
          <table className="data-table">
            <tbody>
              {operations.slice(0, OPERATION_KEYS.length).map((operation, i) => (
                <tr key={operation.id}>
                  <td>
                    <kbd>{OPERATION_KEYS[i]!.toUpperCase()}</kbd>
                  </td>
                  <td>
                    <span className="swatch" style={{ background: operation.color }} /> {operation.name}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <table className="data-table">
            <tbody>
              {shortcutActions(readOnly).map((action) => (
                <tr key={action.id}>
                  <td>
                    <kbd>{action.keys}</kbd>
                  </td>
                  <td>{action.label}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <button type="button" className="button" onClick={onClose}>
          Закрыть
        </button>
      </div>
    </div>
  );
}
