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
  /** Small buttons, as in a table row (default: yes); a list row of its own has full-size ones. */
  small?: boolean;
  /** Class of all three buttons instead of the default ones (a toolbar with buttons of its own look). */
  buttonClass?: string;
  disabled?: boolean;
  title?: string;
}

/** A button that asks first: «Да, …» acts, «Нет» takes the question back (deleting, cancelling). */
export function ConfirmButton({
  question,
  onConfirm,
  action = 'Удалить',
  confirm = 'Да, удалить',
  label,
  danger = true,
  small = true,
  buttonClass,
  disabled,
  title,
}: ConfirmButtonProps) {
  const [confirming, setConfirming] = useState(false);
  const size = small ? ' small' : '';
  if (!confirming)
    return (
      <button
        type="button"
        className={buttonClass ?? `button secondary${size}${danger ? ' danger' : ''}`}
        aria-label={label}
        title={title}
        disabled={disabled}
        onClick={() => setConfirming(true)}
      >
        {action}
      </button>
    );
  return (
    <span className="confirm">
      {question}
      <button
        type="button"
        className={buttonClass ?? `button danger${size}`}
        onClick={() => {
          setConfirming(false);
          onConfirm();
        }}
      >
        {confirm}
      </button>
      <button type="button" className={buttonClass ?? `button secondary${size}`} onClick={() => setConfirming(false)}>
        Нет
      </button>
    </span>
  );
}
