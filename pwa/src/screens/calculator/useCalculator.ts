import { useEffect, useState } from 'react';
import { useSnapshot } from 'valtio';
import { api, type ApiInit } from '../../api/client';
import type {
  CalculatorDays as Days,
  CalculatorGearTable as GearTable,
  CalculatorMeasurementGraph as MeasurementGraph,
  CalculatorPrivateOutput as PrivateOutput,
  CalculatorPublicOutput as PublicOutput,
  CalculatorSettings as SettingsReply,
  RequiredMeasurements,
} from '../../api/types';
import { login } from '../../state/login';
import { calculatorQuery, initialForm, measurementsReady, outputsReady, type CalculatorForm } from './model';

export interface Outputs {
  pub: PublicOutput;
  days: Days;
  graph: MeasurementGraph;
  priv: PrivateOutput | null;
  gear: GearTable | null;
}

/** Waiting after the last keystroke before asking the server, so typing "120" is one request, not three. */
const TYPING_PAUSE_MS = 400;

const failureText = (what: string, error: unknown) => `${what}: ${(error as Error).message}`;

/**
 * The calculator's state: the form, the required measurements for its production type, the outputs
 * for its company inputs (asked for after a typing pause), what the signed-in user may see and edit,
 * and the administrator's settings. All figures come from the server.
 */
export function useCalculator() {
  const { loggedIn, checked } = useSnapshot(login);
  const [form, setForm] = useState<CalculatorForm>(initialForm);
  const [required, setRequired] = useState<RequiredMeasurements | null>(null);
  const [outputs, setOutputs] = useState<Outputs | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [access, setAccess] = useState<{ canEdit: boolean; canViewPrivate: boolean }>({ canEdit: false, canViewPrivate: false });
  const [settings, setSettings] = useState<SettingsReply | null>(null);
  /** Bumped when an administrator saves: the outputs are asked for again with the new settings. */
  const [settingsVersion, setSettingsVersion] = useState(0);

  const set = <K extends keyof CalculatorForm>(key: K, value: CalculatorForm[K]) => setForm((f) => ({ ...f, [key]: value }));

  // spec 02 §6: the panels appear only when the gear defaults say can_edit (the server decides).
  useEffect(() => {
    if (!checked) return;
    let alive = true;
    (async () => {
      try {
        const gear = await api.get('/api/v2/get_calculator_gear_defaults');
        if (!alive) return;
        setAccess({ canEdit: gear.can_edit, canViewPrivate: gear.can_view_private });
        if (!gear.can_edit) return setSettings(null);
        const [defaults, license] = await Promise.all([api.get('/api/v2/get_calculator_defaults'), api.get('/api/v2/get_calculator_license')]);
        if (alive) setSettings({ ...gear, defaults: defaults.defaults, license: license.license });
      } catch (e) {
        if (alive) setError(failureText('Не удалось загрузить настройки калькулятора', e));
      }
    })();
    return () => {
      alive = false;
    };
  }, [checked, loggedIn]);

  // §5: required measurements only when a production type is chosen.
  const { productionType, less10Sec } = form;
  useEffect(() => {
    if (!measurementsReady({ ...initialForm, productionType })) return setRequired(null);
    let alive = true;
    api
      .get('/api/v2/required_measurements', { query: { production_type: productionType!, less_10_sec: less10Sec } })
      .then((r) => alive && setRequired(r))
      .catch((e) => alive && setError(failureText('Не удалось получить число замеров', e)));
    return () => {
      alive = false;
    };
  }, [productionType, less10Sec]);

  // §5: outputs only when the company inputs are complete.
  useEffect(() => {
    if (!outputsReady(form)) {
      setOutputs(null);
      return;
    }
    let alive = true;
    const timer = setTimeout(async () => {
      // The form's fields as typed (text); the API reads the numbers out of them and refuses a wrong one (400, shown).
      const query = calculatorQuery(form) as Record<string, unknown> as ApiInit<'/api/v2/get_calculator_days', 'get'>['query'];
      setBusy(true);
      try {
        const [pub, days, graph, priv, gear] = await Promise.all([
          api.get('/api/v2/get_calculator_public_output', { query }),
          api.get('/api/v2/get_calculator_days', { query }),
          api.get('/api/v2/get_calculator_measurement_graph', { query }),
          access.canViewPrivate ? api.get('/api/v2/get_calculator_private_output', { query }) : Promise.resolve(null),
          access.canViewPrivate ? api.get('/api/v2/get_calculator_gear_table', { query }) : Promise.resolve(null),
        ]);
        if (alive) {
          setOutputs({ pub, days, graph, priv, gear });
          setError(null);
        }
      } catch (e) {
        if (alive) {
          setOutputs(null);
          setError(failureText('Расчёт не выполнен', e));
        }
      } finally {
        if (alive) setBusy(false);
      }
    }, TYPING_PAUSE_MS);
    return () => {
      alive = false;
      clearTimeout(timer);
    };
  }, [form, access.canViewPrivate, settingsVersion]);

  /** An administrator saved the settings: keep the reply and ask for the outputs again. */
  const settingsSaved = (reply: SettingsReply) => {
    setSettings(reply);
    setSettingsVersion((v) => v + 1);
  };

  return { form, set, required, outputs, busy, error, access, settings, settingsSaved };
}

export type Calculator = ReturnType<typeof useCalculator>;
