import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { CameraStream, StreamCheck } from '../../api/types';
import { StreamForm, type StreamFormProps } from './CameraStream';

const stream: CameraStream = {
  camera_id: 3,
  url: 'rtsp://admin:***@10.0.0.7:554/Streaming/101',
  enabled: true,
  segment_seconds: 300,
  retention_days: 30,
  retention_gb: null,
  state: 'online',
  last_frame_at: Date.parse('2026-11-29T09:00:00Z'),
  last_error: null,
  recording: true,
  offline_alert_seconds: 90,
  live_model: null,
};
const check: StreamCheck = { codec: 'h264', width: 768, height: 576, frame_rate: 10, browser_playable: true, snapshot: 'data:image/jpeg;base64,/9j/AA==' };
const props = (over: Partial<StreamFormProps>): StreamFormProps => ({
  cameraName: 'Камера 1',
  stream,
  draft: { url: stream.url, enabled: true, segment_seconds: 300, retention_days: 30, retention_gb: null, offline_alert_seconds: 90 },
  check: null,
  checkError: null,
  busy: false,
  choices: { models: [], employees: [] },
  onDraft: () => {},
  onCheck: () => {},
  onSave: () => {},
  onLiveModel: () => {},
  ...over,
});

describe('camera stream form', () => {
  it('shows the address as the server gives it (password masked), the recording state and the retention', () => {
    const html = renderToStaticMarkup(<StreamForm {...props({})} />);
    expect(html).toContain('value="rtsp://admin:***@10.0.0.7:554/Streaming/101"');
    expect(html).toContain('Поток: пишется, последний кадр');
    expect(html).toContain('value="30"');
    expect(html).not.toContain('<img');
  });

  it('shows a check: codec, picture, frame rate and the frame; or the reason in Russian', () => {
    const html = renderToStaticMarkup(<StreamForm {...props({ check })} />);
    expect(html).toContain('src="data:image/jpeg;base64,/9j/AA=="');
    expect(html).toContain('h264, 768×576, 10 к/с — записывается без перекодирования');
    const failed = renderToStaticMarkup(<StreamForm {...props({ checkError: 'Камера отказала во входе: проверьте имя и пароль в адресе' })} />);
    expect(failed).toContain('role="alert"');
    expect(failed).toContain('Камера отказала во входе');
  });

  it('without a stream says so; without an address the buttons are off', () => {
    const html = renderToStaticMarkup(
      <StreamForm
        {...props({
          stream: null,
          draft: { url: '', enabled: true, segment_seconds: 300, retention_days: null, retention_gb: null, offline_alert_seconds: 60 },
        })}
      />,
    );
    expect(html).toContain('Поток не задан');
    expect(html.match(/disabled=""/g)?.length).toBe(2);
    // No stream, no live model to choose.
    expect(html).not.toContain('Живая разметка');
  });

  it('offers the camera’s trained models for live labels and names the active one', () => {
    const models = [
      { id: 7, name: 'Модель 7: Стол № 1' },
      { id: 5, name: 'Модель 5: Стол № 1' },
    ];
    const employees = [{ id: 3, name: 'Иванов Иван' }];
    const none = renderToStaticMarkup(<StreamForm {...props({ choices: { models, employees } })} />);
    expect(none).toContain('Камера 1: модель живой разметки"');
    expect(none).toContain('<option value="" selected="">не размечать</option>');
    expect(none).toContain('Выберите модель');
    expect(none).toContain('value="90"');
    expect(none).not.toContain('сотрудник живой разметки');
    const active = renderToStaticMarkup(
      <StreamForm {...props({ choices: { models, employees }, stream: { ...stream, live_model: { id: 5, name: 'Модель 5: Стол № 1', employee_id: 3 } } })} />,
    );
    expect(active).toContain('<option value="5" selected="">Модель 5: Стол № 1</option>');
    expect(active).toContain('<option value="3" selected="">Иванов Иван</option>');
    expect(active).toContain('Модель «Модель 5: Стол № 1» размечает каждый закрытый отрезок записи');
    expect(active).not.toContain('разметка отрезка не выйдет');
    const daily = renderToStaticMarkup(
      <StreamForm
        {...props({ choices: { models, employees }, stream: { ...stream, live_model: { id: 5, name: 'Модель 5: Стол № 1', employee_id: null } } })}
      />,
    );
    expect(daily).toContain('<option value="" selected="">сотруднику места в этот день</option>');
    expect(daily).toContain('разметка отрезка не выйдет');
    expect(renderToStaticMarkup(<StreamForm {...props({})} />)).toContain('нет обученных моделей');
  });
});
