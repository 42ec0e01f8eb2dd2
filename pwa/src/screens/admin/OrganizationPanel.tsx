import { useMemo } from 'react';
import type { TimeZonePreview } from '../../api/types';
import { Banner } from '../../ui/Banner';
import { NAME_MAX, RUSSIAN_ZONES, offsetLabel, otherZones, useOrganization, zoneLabel } from './useOrganization';

/** "+2 ч", "−30 мин", "+5 ч 30 мин", "без разницы". */
function shiftText(minutes: number): string {
  if (minutes === 0) return 'та же разница с UTC';
  const sign = minutes > 0 ? '+' : '−';
  const abs = Math.abs(minutes);
  const hours = Math.floor(abs / 60);
  const rest = abs % 60;
  return `${sign}${[hours ? `${hours} ч` : '', rest ? `${rest} мин` : ''].filter(Boolean).join(' ')}`;
}

/** What saving the new zone changes, in words (the server counted the recordings). */
function ZonePreview({ preview }: { preview: TimeZonePreview }) {
  const { recordings, recordings_from_file_name: fromName } = preview;
  return (
    <div className="banner banner-info" role="status" data-testid="time-zone-preview">
      <p>
        <strong>Что изменится после сохранения</strong>
      </p>
      <ul>
        <li>
          Местное время сейчас: {preview.now_local} по поясу {zoneLabel(preview.time_zone)} → {preview.new_now_local} по поясу{' '}
          {zoneLabel(preview.new_time_zone)} ({shiftText(preview.offset_change_minutes)}).
        </li>
        <li>Время в именах новых файлов записей (например, cam1_2026-11-16_09-00-00.mp4) будет читаться по новому поясу.</li>
        <li>Сутки в отчётах будут начинаться в полночь по новому поясу; смены и даты на экранах — по новому местному времени.</li>
        <li>
          {fromName > 0
            ? `Уже загруженные записи сохранят своё начало: у ${fromName} из ${recordings} оно прочитано из имени файла по прежнему поясу — при необходимости его можно поправить у каждой записи.`
            : `Уже загруженные записи (${recordings}) сохранят своё начало; среди них нет записей, чьё начало прочитано из имени файла.`}
        </li>
      </ul>
    </div>
  );
}

/**
 * «Организация»: the organisation's name and time zone (its admin). A new zone is previewed before
 * it can be saved; the demo organisation keeps its zone (docs/workspace.md «Организация»).
 */
export function OrganizationPanel() {
  const org = useOrganization();
  const others = useMemo(otherZones, []);
  if (org.loadError) return <Banner text={org.loadError} />;
  if (!org.stored) return <p className="muted">Загрузка…</p>;
  const known = RUSSIAN_ZONES.some((z) => z.zone === org.zone) || others.includes(org.zone);
  const waitingPreview = org.zone !== org.stored.time_zone && org.preview === null;
  return (
    <section className="card admin-section" aria-labelledby="organization-title" data-testid="organization-panel">
      <h2 id="organization-title">Организация</h2>
      <form className="admin-form" onSubmit={(event) => void org.save(event)} aria-label="Настройки организации">
        <div className="row">
          <label>
            Название
            <input value={org.name} maxLength={NAME_MAX} onChange={(e) => org.setName(e.target.value)} autoComplete="organization" />
          </label>
          <label>
            Часовой пояс
            <select value={org.zone} disabled={org.stored.is_demo} onChange={(e) => void org.chooseZone(e.target.value)}>
              {!known && <option value={org.zone}>{org.zone}</option>}
              <optgroup label="Россия">
                {RUSSIAN_ZONES.map(({ zone, city }) => (
                  <option key={zone} value={zone}>
                    {city} — {offsetLabel(zone)}
                  </option>
                ))}
              </optgroup>
              <optgroup label="Другие пояса">
                {others.map((zone) => (
                  <option key={zone} value={zone}>
                    {zone}
                  </option>
                ))}
              </optgroup>
            </select>
          </label>
          <button type="submit" className="button" disabled={!org.changed || org.saving || waitingPreview}>
            Сохранить
          </button>
        </div>
        <p className="muted small">
          {org.stored.is_demo
            ? 'Часовой пояс демонстрационной организации не меняется: её записи и смены сделаны по этому поясу.'
            : 'По часовому поясу читается время в именах файлов записей, режутся сутки отчётов и показываются все даты.'}
        </p>
        {org.preview && <ZonePreview preview={org.preview} />}
        <Banner text={org.error} />
      </form>
    </section>
  );
}
