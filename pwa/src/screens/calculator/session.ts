import { api, type ApiInit } from '../../api/client';
import type {
  CalculatorDays as Days,
  CalculatorGearTable as GearTable,
  CalculatorMeasurementGraph as MeasurementGraph,
  CalculatorPrivateOutput as PrivateOutput,
  CalculatorPublicOutput as PublicOutput,
  CalculatorSettings as SettingsReply,
  ProductionType,
  RequiredMeasurements,
} from '../../api/types';
import { SessionStore } from '../../state/session-store';
import { calculatorQuery, initialForm, inputProblem, measurementsReady, outputsReady, type CalculatorForm } from './model';

export interface Outputs {
  pub: PublicOutput;
  days: Days;
  graph: MeasurementGraph;
  priv: PrivateOutput | null;
  gear: GearTable | null;
}

/** Waiting after the last keystroke before asking the server, so typing "120" is one request, not three. */
export const TYPING_PAUSE_MS = 400;

const failureText = (what: string, error: unknown) => `${what}: ${(error as Error).message}`;

/** Stops a request started by the session: its answer, when it comes, is dropped. */
type Cancel = () => void;

/**
 * The calculator's state, outside React: the form, the required measurements for its production
 * type, the outputs for its company inputs, what the signed-in user may see and edit, and the
 * administrator's settings. All figures come from the server. Each request returns its `Cancel`:
 * the screen starts one when what it depends on changes and cancels the one before.
 */
export class CalculatorSession extends SessionStore {
  form: CalculatorForm = initialForm;
  required: RequiredMeasurements | null = null;
  outputs: Outputs | null = null;
  busy = false;
  error: string | null = null;
  access: { canEdit: boolean; canViewPrivate: boolean } = { canEdit: false, canViewPrivate: false };
  settings: SettingsReply | null = null;
  /** Bumped when an administrator saves: the outputs are asked for again with the new settings. */
  settingsVersion = 0;

  private change(next: Partial<Pick<CalculatorSession, 'required' | 'outputs' | 'busy' | 'error' | 'access' | 'settings'>>) {
    Object.assign(this, next);
    this.emit();
  }

  set = <K extends keyof CalculatorForm>(key: K, value: CalculatorForm[K]) => {
    this.form = { ...this.form, [key]: value };
    this.emit();
  };

  /** spec 02 §6: the panels appear only when the gear defaults say can_edit (the server decides). */
  loadAccess(): Cancel {
    let alive = true;
    (async () => {
      try {
        const gear = await api.get('/api/v2/get_calculator_gear_defaults');
        if (!alive) return;
        this.change({ access: { canEdit: gear.can_edit, canViewPrivate: gear.can_view_private } });
        if (!gear.can_edit) return this.change({ settings: null });
        const [defaults, license] = await Promise.all([api.get('/api/v2/get_calculator_defaults'), api.get('/api/v2/get_calculator_license')]);
        if (alive) this.change({ settings: { ...gear, defaults: defaults.defaults, license: license.license } });
      } catch (e) {
        if (alive) this.change({ error: failureText('Не удалось загрузить настройки калькулятора', e) });
      }
    })();
    return () => {
      alive = false;
    };
  }

  /** §5: required measurements only when a production type is chosen. */
  loadRequired(productionType: ProductionType | null, less10Sec: boolean): Cancel | undefined {
    if (!measurementsReady({ ...initialForm, productionType })) {
      this.change({ required: null });
      return;
    }
    let alive = true;
    api
      .get('/api/v2/required_measurements', { query: { production_type: productionType!, less_10_sec: less10Sec } })
      .then((r) => alive && this.change({ required: r }))
      .catch((e) => alive && this.change({ error: failureText('Не удалось получить число замеров', e) }));
    return () => {
      alive = false;
    };
  }

  /** §5: outputs only when the company inputs are complete, asked for after a typing pause. */
  scheduleOutputs(form: CalculatorForm, canViewPrivate: boolean): Cancel | undefined {
    if (!outputsReady(form)) {
      this.change({ outputs: null });
      return;
    }
    // A figure out of its bounds («-5» employees) is named before any request (issue 41).
    const problem = inputProblem(form);
    if (problem) {
      this.change({ outputs: null, error: problem });
      return;
    }
    let alive = true;
    const timer = setTimeout(async () => {
      // The form's fields as typed (text); the API reads the numbers out of them and refuses a wrong one (400, shown).
      const query = calculatorQuery(form) as Record<string, unknown> as ApiInit<'/api/v2/get_calculator_days', 'get'>['query'];
      this.change({ busy: true });
      try {
        const [pub, days, graph, priv, gear] = await Promise.all([
          api.get('/api/v2/get_calculator_public_output', { query }),
          api.get('/api/v2/get_calculator_days', { query }),
          api.get('/api/v2/get_calculator_measurement_graph', { query }),
          canViewPrivate ? api.get('/api/v2/get_calculator_private_output', { query }) : Promise.resolve(null),
          canViewPrivate ? api.get('/api/v2/get_calculator_gear_table', { query }) : Promise.resolve(null),
        ]);
        if (alive) this.change({ outputs: { pub, days, graph, priv, gear }, error: null });
      } catch (e) {
        if (alive) this.change({ outputs: null, error: failureText('Расчёт не выполнен', e) });
      } finally {
        if (alive) this.change({ busy: false });
      }
    }, TYPING_PAUSE_MS);
    return () => {
      alive = false;
      clearTimeout(timer);
    };
  }

  /** An administrator saved the settings: keep the reply and ask for the outputs again. */
  settingsSaved = (reply: SettingsReply) => {
    this.settings = reply;
    this.settingsVersion++;
    this.emit();
  };
}
