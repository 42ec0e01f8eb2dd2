/**
 * A group of toggle buttons of which one is chosen (aria-pressed): a player's speeds, a report's
 * cameras. The one such group of the PWA; a click on a button chooses its value.
 */
export function ChoiceButtons<Value extends string | number>({
  label,
  options,
  value,
  onChoose,
  text,
}: {
  /** The group's accessible name («Скорость», «Камера»). */
  label: string;
  options: readonly Value[];
  value: NoInfer<Value> | null | undefined;
  onChoose(value: NoInfer<Value>): void;
  text(value: NoInfer<Value>): string;
}) {
  return (
    <span className="speeds" role="group" aria-label={label}>
      {options.map((option) => (
        <button
          key={option}
          type="button"
          className={option === value ? 'speed active' : 'speed'}
          aria-pressed={option === value}
          onClick={() => onChoose(option)}
        >
          {text(option)}
        </button>
      ))}
    </span>
  );
}
