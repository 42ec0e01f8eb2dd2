import { useState } from 'react';

interface ConfirmDeleteButtonProps {
  /** Asked before deleting, e.g. «Удалить область «Станок»?». */
  question: string;
  onConfirm(): void;
  /** Accessible name of the first button (default «Удалить»): tells apart the rows of a table. */
  label?: string;
}

/** «Удалить» that asks first: «Да, удалить» deletes, «Нет» takes the question back. */
export function ConfirmDeleteButton({ question, onConfirm, label }: ConfirmDeleteButtonProps) {
  const [confirming, setConfirming] = useState(false);
  if (!confirming)
    return (
      <button type="button" className="button danger secondary small" aria-label={label} onClick={() => setConfirming(true)}>
        Удалить
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
        Да, удалить
      </button>
      <button type="button" className="button secondary small" onClick={() => setConfirming(false)}>
        Нет
      </button>
    </span>
  );
}
