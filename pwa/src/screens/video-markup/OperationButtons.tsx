import { OPERATION_KEYS } from './coding';
import type { OperationOption } from './OperationRows';

interface Props {
  operations: OperationOption[];
  /** The operation of the segment being coded, if any. */
  codingOperationId: number | null;
  onPress(operationId: number): void;
  onStop(): void;
}

/**
 * The keyboard's coding flow by touch: a tap on an operation ends the segment being coded at the
 * playhead and starts this operation there (as its key does); «Стоп» ends it (as Enter does).
 */
export function OperationButtons({ operations, codingOperationId, onPress, onStop }: Props) {
  if (operations.length === 0) return null;
  return (
    <section className="op-buttons" aria-label="Кнопки операций" data-testid="op-buttons">
      {operations.map((operation, index) => (
        <button
          key={operation.id}
          type="button"
          className={`op-button${codingOperationId === operation.id ? ' active' : ''}`}
          style={{ borderLeftColor: operation.color }}
          aria-pressed={codingOperationId === operation.id}
          onClick={() => onPress(operation.id)}
        >
          <span className="op-button-name">{operation.name}</span>
          {OPERATION_KEYS[index] && <kbd aria-hidden="true">{OPERATION_KEYS[index]}</kbd>}
        </button>
      ))}
      <button type="button" className="op-button stop" onClick={onStop} disabled={codingOperationId === null}>
        Стоп
      </button>
    </section>
  );
}
