import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { StructureHealth } from '../../api/types';
import { CameraHealthView } from './CameraHealth';

type Camera = StructureHealth['cameras'][number];
const camera = (over: Partial<Camera>): Camera => ({
  camera_id: 1,
  camera_key: 1,
  camera_name: 'Вход',
  enabled: true,
  state: 'online',
  recording: true,
  last_frame_at: 1,
  last_segment_at: 1,
  segment_seconds: 300,
  offline_alert_seconds: 60,
  live_model_id: null,
  frame_rate: null,
  last_error: null,
  view_check: null,
  alerts: [],
  ...over,
});
const health = (over: Partial<StructureHealth>): StructureHealth => ({
  structure_id: 1,
  checked_at: 1,
  cameras: [camera({})],
  disk: { free_bytes: 1, total_bytes: 2, threshold_bytes: 0, low: false },
  alerts: [],
  ...over,
});

describe('camera health on the projects page', () => {
  it('says all is well, or lists every alert in Russian', () => {
    const ok = renderToStaticMarkup(<CameraHealthView health={health({})} error={null} />);
    expect(ok).toContain('Камеры по потоку: в сети 1 из 1 — тревог нет');
    expect(ok).toContain('badge done');
    const offline = { kind: 'offline' as const, since: 1, message: 'Камера 2 «Склад»: не в сети, нет кадров 3 мин' };
    const disk = { kind: 'disk' as const, since: null, message: 'Диск хранилища почти полон: свободно 1,0 ГБ из 100,0 ГБ' };
    const bad = renderToStaticMarkup(
      <CameraHealthView
        health={health({
          cameras: [camera({}), camera({ camera_id: 2, state: 'offline', alerts: [offline] }), camera({ camera_id: 3, enabled: false, state: 'offline' })],
          alerts: [offline, disk],
        })}
        error={null}
      />,
    );
    expect(bad).toContain('в сети 1 из 2 — тревог: 2');
    expect(bad).toContain('badge damaged');
    expect(bad).toContain('<li>Камера 2 «Склад»: не в сети, нет кадров 3 мин</li>');
    expect(bad).toContain('<li>Диск хранилища почти полон');
    expect(bad).not.toContain('Частота кадров');
  });

  it('shows each enabled stream’s measured frame rate in Russian', () => {
    const html = renderToStaticMarkup(
      <CameraHealthView
        health={health({
          cameras: [
            camera({ frame_rate: 25 }),
            camera({ camera_id: 2, camera_name: 'Склад', frame_rate: 12.46 }),
            camera({ camera_id: 3, camera_name: 'Новая', frame_rate: null }),
            camera({ camera_id: 4, camera_name: 'Выключена', enabled: false, frame_rate: 10 }),
          ],
        })}
        error={null}
      />,
    );
    expect(html).toContain('Частота кадров: Вход — 25 к/с, Склад — 12,5 к/с</p>');
    expect(html).not.toContain('Новая');
    expect(html).not.toContain('Выключена');
  });

  it('shows nothing for a structure without stream cameras, and a failed call in words', () => {
    expect(renderToStaticMarkup(<CameraHealthView health={health({ cameras: [] })} error={null} />)).toBe('');
    expect(renderToStaticMarkup(<CameraHealthView health={null} error={null} />)).toBe('');
    expect(renderToStaticMarkup(<CameraHealthView health={null} error="Нет связи с сервером" />)).toContain(
      'Состояние камер не загружено: Нет связи с сервером',
    );
  });
});
