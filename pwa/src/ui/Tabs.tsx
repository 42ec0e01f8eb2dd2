/** A row of tabs (role="tablist"): one chosen, a click chooses another. The one tab bar of the PWA. */
export function Tabs<Key extends string>({
  tabs,
  value,
  onChange,
}: {
  tabs: readonly { key: Key; label: string }[];
  value: NoInfer<Key>;
  onChange(key: NoInfer<Key>): void;
}) {
  return (
    <div className="tabs" role="tablist">
      {tabs.map((tab) => (
        <button
          key={tab.key}
          type="button"
          role="tab"
          aria-selected={value === tab.key}
          className={value === tab.key ? 'tab active' : 'tab'}
          onClick={() => onChange(tab.key)}
        >
          {tab.label}
        </button>
      ))}
    </div>
  );
}
