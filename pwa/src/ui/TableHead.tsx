/**
 * A table's header row: the column titles and, last, the column of a row's buttons, titled
 * «Действия» for screen readers only. The one header of the PWA's editable tables.
 */
export function TableHead({ titles }: { titles: readonly string[] }) {
  return (
    <thead>
      <tr>
        {titles.map((title) => (
          <th key={title}>{title}</th>
        ))}
        <th>
          <span className="visually-hidden">Действия</span>
        </th>
      </tr>
    </thead>
  );
}
