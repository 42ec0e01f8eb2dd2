import { useLayoutEffect, useRef, type RefObject } from 'react';
import { OPERATION_KEYS } from './coding';
import type { OperationOption } from './OperationRows';

interface Props {
  operations: OperationOption[];
  /** The operation of the segment being coded, if any. */
  codingOperationId: number | null;
  onPress(operationId: number): void;
  onStop(): void;
  /** A tablet or a phone: the grid ends at the window's bottom edge and scrolls inside itself beyond it (useFitToWindow). */
  fitWindow?: boolean;
}

/** Below this room the grid is left whole and the page scrolls instead: a window too short for two rows of buttons. */
const MIN_FIT_PX = 120;
/** The gap kept under the grid, so its last row does not touch the window's edge. */
const BOTTOM_GAP_PX = 8;

/**
 * The grid's height is capped at what is left of the window under it when the page is at its top
 * (docs/layout.md, «Разметка видео на планшете и телефоне»): with the demo's nine operations every
 * button shows whole beside or under the video; with many more the grid scrolls inside itself and
 * the video above stays in view. Followed as the window turns or what is above the grid changes.
 */
function useFitToWindow(grid: RefObject<HTMLElement | null>, enabled: boolean) {
  useLayoutEffect(() => {
    const element = grid.current;
    if (!element) return;
    if (!enabled) {
      element.style.maxHeight = '';
      return;
    }
    const fit = () => {
      const room = window.innerHeight - (element.getBoundingClientRect().top + window.scrollY) - BOTTOM_GAP_PX;
      const cap = room >= MIN_FIT_PX ? `${Math.floor(room)}px` : '';
      if (element.style.maxHeight !== cap) element.style.maxHeight = cap;
    };
    fit();
    const observer = typeof ResizeObserver === 'function' ? new ResizeObserver(fit) : null;
    observer?.observe(document.body);
    window.addEventListener('resize', fit);
    return () => {
      observer?.disconnect();
      window.removeEventListener('resize', fit);
      element.style.maxHeight = '';
    };
  }, [grid, enabled]);
}

/**
 * The keyboard's coding flow by touch: a tap on an operation ends the segment being coded at the
 * playhead and starts this operation there (as its key does); «Стоп» ends it (as Enter does).
 */
export function OperationButtons({ operations, codingOperationId, onPress, onStop, fitWindow = false }: Props) {
  const grid = useRef<HTMLElement>(null);
  useFitToWindow(grid, fitWindow && operations.length > 0);
  if (operations.length === 0) return null;
  return (
    <section ref={grid} className={fitWindow ? 'op-buttons fit' : 'op-buttons'} aria-label="Кнопки операций" data-testid="op-buttons">
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
