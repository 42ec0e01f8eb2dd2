import { CalculatorInputs } from './CalculatorInputs';
import { CalculatorOutputs } from './CalculatorOutputs';
import { SettingsPanels } from './SettingsPanels';
import { useCalculator } from './useCalculator';
import './calculator.css';

/**
 * spec 02 "Productivity calculator": production type and the under-10-seconds switch (required
 * measurements), company inputs, outputs with the savings and measurement graphs, and the
 * administrator panels. All figures come from the server (api/src/calculator, docs/calculator.md);
 * every failed call is shown by the API client and, here, under the form.
 */
export function CalculatorScreen() {
  const { form, set, required, outputs, busy, error, access, settings, settingsSaved } = useCalculator();
  return (
    <section className="screen calculator">
      <h1>Калькулятор производительности</h1>
      <p className="muted">
        Сколько стоит анализ работы по видео и сколько он может сэкономить. Число замеров считается по той же методике и тем же справочникам, что и отчёты (
        <a href="#/methodology">методика</a>).
      </p>

      <CalculatorInputs form={form} set={set} required={required} error={error} />

      {outputs && <CalculatorOutputs outputs={outputs} busy={busy} />}

      {access.canEdit && settings && <SettingsPanels settings={settings} onSaved={settingsSaved} />}
    </section>
  );
}
