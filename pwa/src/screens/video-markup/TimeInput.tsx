import { useState } from 'react';

/** Seconds → hours, minutes, seconds (spec 01 §5: time entry is h, m, s converted to seconds). */
export function splitSeconds(total: number) {
  const whole = Math.max(0, Math.floor(total));
  return { h: Math.floor(whole / 3600), m: Math.floor((whole % 3600) / 60), s: whole % 60, fraction: total - whole };
}

export function joinSeconds(h: string, m: string, s: string, fraction = 0): number {
  const n = (v: string) => (v.trim() === '' ? 0 : Number.parseInt(v, 10) || 0);
  return n(h) * 3600 + n(m) * 60 + n(s) + fraction;
}

/** The three fields' text for a value in seconds. */
function draftOf(value: number) {
  const parts = splitSeconds(value);
  return { h: String(parts.h), m: String(parts.m).padStart(2, '0'), s: String(parts.s).padStart(2, '0') };
}

/**
 * Hours, minutes and seconds inputs (minutes and seconds take 2 characters). The value is
 * committed on leaving the field or Enter — one undo step per edit, not per keystroke.
 * Fractions of a second coded with the keyboard are kept unless the seconds are retyped.
 */
export function TimeInput({
  value,
  onCommit,
  label,
  invalid,
  disabled,
}: {
  value: number;
  onCommit(seconds: number): void;
  label: string;
  invalid?: boolean;
  disabled?: boolean;
}) {
  const parts = splitSeconds(value);
  const [draft, setDraft] = useState(() => draftOf(value));
  // A new value from outside (undo, a drag on the timeline) replaces the draft, during the render
  // itself: an effect would draw every input again once after it first appears (issue 47: 22 inputs
  // a second time on a markup screen's cold open).
  const [draftFor, setDraftFor] = useState(value);
  if (draftFor !== value) {
    setDraftFor(value);
    setDraft(draftOf(value));
  }
  const commit = () => {
    const unchanged = draft.h === String(parts.h) && Number(draft.m) === parts.m && Number(draft.s) === parts.s;
    if (unchanged) return;
    onCommit(joinSeconds(draft.h, draft.m, draft.s));
  };
  const field = (name: 'h' | 'm' | 's', title: string, maxLength?: number) => (
    <input
      aria-label={`${label}: ${title}`}
      className={`time-part${invalid ? ' invalid' : ''}`}
      inputMode="numeric"
      maxLength={maxLength}
      disabled={disabled}
      value={draft[name]}
      onChange={(e) => setDraft({ ...draft, [name]: e.target.value.replace(/\D/g, '') })}
      onBlur={commit}
      onKeyDown={(e) => e.key === 'Enter' && commit()}
    />
  );
  return (
    <span className="time-input" role="group" aria-label={label}>
      {field('h', 'часы', 2)}:{field('m', 'минуты', 2)}:{field('s', 'секунды', 2)}
    </span>
  );
}
