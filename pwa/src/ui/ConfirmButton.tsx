import { useState } from 'react';

interface ConfirmButtonProps {
  /** Asked before acting, e.g. «Удалить область «Станок»?». */
  question: string;
  onConfirm(): void;
  /** The button's text (default «Удалить») and the confirming one's (default «Да, удалить»). */
  action?: string;
  confirm?: string;
  /** Accessible name of the first button: tells apart the rows of a table. */
  label?: string;
  /** Drawn as a destructive action (default: yes). */
  danger?: boolean;
}

/** A button that asks first: «Да, …» acts, «Нет» takes the question back (deleting, cancelling). */
export function ConfirmButton({ question, onConfirm, action = 'Удалить', confirm = 'Да, удалить', label, danger = true }: ConfirmButtonProps) {
  const [confirming, setConfirming] = useState(false);
  if (!confirming)
    return (
      <button type="button" className={`button secondary small${danger ? ' danger' : ''}`} aria-label={label} onClick={() => setConfirming(true)}>
        {action}
      </button>
    );
  return (
    <span className="confirm">
      {question}
      <button
        type="button"
        className="button danger small"
        onClick={() => {
          setConfirming(false);
          onConfirm();
        }}
      >
        {confirm}
      </button>
      <button type="button" className="button secondary small" onClick={() => setConfirming(false)}>
        Нет
      </button>
    </span>
  );
}
