import type { VisionModel } from '../api/types';
import type { LiveSuggestionState } from './useLiveSuggestion';

interface SuggestionPanelProps {
  models: VisionModel[];
  modelId: number | null;
  onModel(id: number | null): void;
  state: LiveSuggestionState;
  /** What accepting does, shown beside the suggestion (e.g. the key). */
  hint?: string;
  /** Whether every settled suggestion is coded as the video plays (the markup screen). */
  follow?: boolean;
  onFollow?(on: boolean): void;
}

const BACKEND_TEXT = { webgpu: 'WebGPU', wasm: 'WebAssembly' } as const;

/** The choice of a trained model of this camera and its live suggestion of the current operation. */
export function SuggestionPanel({ models, modelId, onModel, state, hint, follow, onFollow }: SuggestionPanelProps) {
  const stored = models.filter((m) => m.meta.object_storage_key);
  return (
    <div className="vision-suggestion" data-testid="suggestion-panel">
      <label className="inline">
        Подсказка модели
        <select value={modelId ?? ''} onChange={(e) => onModel(e.target.value ? Number(e.target.value) : null)} aria-label="Модель для подсказки">
          <option value="">— выключена —</option>
          {stored.map((m) => (
            <option key={m.meta.id} value={m.meta.id}>
              {m.meta.name}
            </option>
          ))}
        </select>
      </label>
      {onFollow && modelId !== null && (
        <label className="inline" title="Каждая устоявшаяся подсказка кодируется с того момента, где модель её увидела; ошибку исправляет клавиша операции">
          <input type="checkbox" checked={follow ?? false} onChange={(e) => onFollow(e.target.checked)} />
          Размечать по подсказкам (Shift+M)
        </label>
      )}
      {state.status === 'loading' && <span className="muted">Модель загружается…</span>}
      {state.status === 'error' && <span className="field-error">{state.error}</span>}
      {state.status === 'ready' && (
        <span data-testid="suggestion" data-backend={state.backend ?? ''}>
          {state.suggestion ? (
            <>
              <strong>{state.suggestion.name}</strong> (уверенность {Math.round(state.suggestion.probability * 100)}%)
              {hint && state.suggestion.operationId !== null ? <span className="muted"> · {hint}</span> : null}
            </>
          ) : state.uncertain ? (
            <span
              className="muted"
              data-testid="suggestion-uncertain"
              title="Признаки далеко от того, что модель видела при обучении; применение модели здесь тоже не поставит операцию"
            >
              Модель не уверена: такой работы она при обучении не видела — подсказки нет
            </span>
          ) : state.unsure !== null ? (
            <span className="muted" data-testid="suggestion-unsure">
              Модель не уверена ({Math.round(state.unsure * 100)}%) — подсказки нет
            </span>
          ) : (
            <span className="muted">Запустите видео: подсказка появится через секунду</span>
          )}
          <span className="muted"> · вывод в браузере: {state.backend ? BACKEND_TEXT[state.backend] : ''}</span>
        </span>
      )}
    </div>
  );
}
