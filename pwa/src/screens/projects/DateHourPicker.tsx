import { useEffect, useState } from 'react';
import { atHour, dateAndHour, dmy, formatPicker, parseDmy } from './period';

const HOURS = Array.from({ length: 24 }, (_, h) => h);

/**
 * A date-time picker with hourly steps (spec 02 §9: dd-MM-yyyy HH:mm, 60-minute steps): a date
 * and an hour. With `dates`, only those dates can be chosen (a list); without, any date can be
 * typed as dd-MM-yyyy. The value is an instant (ms) in the organisation's time zone.
 */
export function DateHourPicker({
  label,
  value,
  onChange,
  timeZone,
  dates,
  testId,
}: {
  label: string;
  value: number | null;
  onChange: (instant: number) => void;
  timeZone: string;
  /** Selectable dates ("yyyy-mm-dd"); leave out to allow any date. */
  dates?: readonly string[];
  testId?: string;
}) {
  const current = value === null ? null : dateAndHour(value, timeZone);
  const [typed, setTyped] = useState(current ? dmy(current.date) : '');
  const [invalid, setInvalid] = useState(false);

  // Follow the value when it changes from outside.
  const currentDate = current?.date;
  useEffect(() => {
    if (currentDate) {
      setTyped(dmy(currentDate));
      setInvalid(false);
    }
  }, [currentDate]);

  const choose = (date: string, hour: number) => onChange(atHour(date, hour, timeZone));
  const hour = current?.hour ?? 0;
  const options = dates ? [...dates] : [];
  if (dates && current && !options.includes(current.date)) options.unshift(current.date);

  return (
    <fieldset className="date-hour" data-testid={testId}>
      <legend>{label}</legend>
      {dates ? (
        <select
          aria-label={`${label}: дата`}
          value={current?.date ?? ''}
          onChange={(e) => e.target.value && choose(e.target.value, hour)}
          disabled={options.length === 0}
        >
          {!current && <option value="">{options.length ? 'дата' : 'нет дат с разметкой'}</option>}
          {options.map((d) => (
            <option key={d} value={d} disabled={!dates.includes(d)}>
              {dmy(d)}
            </option>
          ))}
        </select>
      ) : (
        <input
          aria-label={`${label}: дата (дд-мм-гггг)`}
          aria-invalid={invalid || undefined}
          className={invalid ? 'invalid' : undefined}
          inputMode="numeric"
          placeholder="дд-мм-гггг"
          value={typed}
          size={11}
          onChange={(e) => {
            setTyped(e.target.value);
            const date = parseDmy(e.target.value);
            setInvalid(date === null);
            if (date) choose(date, hour);
          }}
        />
      )}
      <select aria-label={`${label}: час`} value={hour} disabled={!current} onChange={(e) => current && choose(current.date, Number(e.target.value))}>
        {HOURS.map((h) => (
          <option key={h} value={h}>
            {String(h).padStart(2, '0')}:00
          </option>
        ))}
      </select>
      <output className="date-hour-value" aria-live="polite">
        {value === null ? '—' : formatPicker(value, timeZone)}
      </output>
      {invalid && <span className="field-error">Введите дату в виде дд-мм-гггг</span>}
    </fieldset>
  );
}
