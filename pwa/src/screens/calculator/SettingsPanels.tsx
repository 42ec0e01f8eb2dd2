import { useEffect, useState } from 'react';
import { api } from '../../api/client';
import type { CalculatorSetting as Setting, CalculatorSettings as SettingsReply } from '../../api/types';
import { Banner } from '../../ui/Banner';
import { changedValues } from './model';

/** A panel's fields: update name, label, the server's value, and what is typed. */
interface Field {
  name: string;
  label: string;
  value: number;
  hint: string;
}

/** "по умолчанию 500; изменено 22.11.2026, 19:02:00, Смирнова Ирина" — the default, and who changed it last. */
function hintText(defaultValue: number, s: { updated_at: string | null; updated_by: string | null }) {
  const changed = s.updated_at ? `; изменено ${new Date(s.updated_at).toLocaleString('ru-RU')}${s.updated_by ? `, ${s.updated_by}` : ''}` : '';
  return `по умолчанию ${defaultValue}${changed}`;
}

/**
 * One administrator panel: a table of values; "Сохранить" sends only the changed ones to
 * update_calculator_defaults (spec 02 §4) and shows what the server said.
 */
function SettingsPanel({ title, testId, fields, onSaved }: { title: string; testId: string; fields: Field[]; onSaved: (reply: SettingsReply) => void }) {
  const [texts, setTexts] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<{ kind: 'error' | 'success' | 'info'; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => setTexts(Object.fromEntries(fields.map((f) => [f.name, String(f.value)]))), [fields]);

  const save = async () => {
    const { changes, problems } = changedValues(fields.map((f) => ({ name: f.name, value: f.value, text: texts[f.name] ?? String(f.value) })));
    if (problems.length > 0) return setMessage({ kind: 'error', text: `Не сохранено: ${problems.join('; ')}` });
    if (changes.length === 0) return setMessage({ kind: 'info', text: 'Нет изменённых значений' });
    setBusy(true);
    try {
      const reply = await api.post('/api/v2/update_calculator_defaults', { body: changes });
      setMessage({ kind: 'success', text: `Успешно сохранено (${changes.length})` });
      onSaved(reply);
    } catch (error) {
      setMessage({ kind: 'error', text: `Не сохранено: ${(error as Error).message}` });
    } finally {
      setBusy(false);
    }
  };

  return (
    <details className="card calculator-panel" data-testid={testId}>
      <summary>
        <strong>{title}</strong>
      </summary>
      <div className="table-scroll">
        <table className="data-table compact">
          <tbody>
            {fields.map((f) => (
              <tr key={f.name}>
                <td>
                  <label htmlFor={`calc-setting-${f.name}`}>{f.label}</label>
                  <div className="muted small">{f.name}</div>
                </td>
                <td>
                  <input
                    id={`calc-setting-${f.name}`}
                    name={f.name}
                    inputMode="decimal"
                    size={10}
                    value={texts[f.name] ?? ''}
                    onChange={(e) => setTexts({ ...texts, [f.name]: e.target.value })}
                  />
                </td>
                <td className="muted small">{f.hint}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <div className="row-actions">
        <button type="button" className="button" disabled={busy} onClick={save}>
          {busy ? 'Сохранение…' : 'Сохранить'}
        </button>
      </div>
      {message && <Banner kind={message.kind} text={message.text} />}
    </details>
  );
}

const settingFields = (rows: Setting[]): Field[] =>
  rows.map((s) => ({ name: s.name, label: `${s.label}, ${s.unit}`, value: s.value, hint: hintText(s.default_value, s) }));

/** spec 02 §6: the administrator panels — defaults, gear, license and cars. Shown only when can_edit. */
export function SettingsPanels({ settings, onSaved }: { settings: SettingsReply; onSaved: (reply: SettingsReply) => void }) {
  const [defaults, setDefaults] = useState<Field[]>([]);
  const [gear, setGear] = useState<Field[]>([]);
  const [license, setLicense] = useState<Field[]>([]);
  useEffect(() => {
    setDefaults(settingFields(settings.defaults));
    setLicense(settingFields(settings.license));
    setGear(
      settings.gear.flatMap((g) => [
        { name: g.owned_name, label: `${g.label}: на складе, шт.`, value: g.owned, hint: hintText(0, g) },
        { name: g.price_name, label: `${g.label}: цена, ₽`, value: g.price, hint: hintText(g.default_price, g) },
      ]),
    );
  }, [settings]);
  return (
    <section className="calculator-admin" data-testid="calc-admin">
      <h2>Настройки калькулятора (администратор)</h2>
      <p className="muted small">Сохраняются только изменённые значения; остальные остаются по умолчанию.</p>
      <SettingsPanel title="Значения по умолчанию" testId="calc-panel-defaults" fields={defaults} onSaved={onSaved} />
      <SettingsPanel title="Оборудование" testId="calc-panel-gear" fields={gear} onSaved={onSaved} />
      <SettingsPanel title="Лицензия и машины" testId="calc-panel-license" fields={license} onSaved={onSaved} />
    </section>
  );
}
