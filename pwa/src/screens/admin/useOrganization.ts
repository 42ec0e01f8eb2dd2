import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import { ApiCallError, api } from '../../api/client';
import type { OrganizationSave, OrganizationSettings, TimeZonePreview } from '../../api/types';
import { refreshCurrentUser } from '../../state/login';
import { notify } from '../../status/notifications';

/** The longest name the server takes (api/src/org/schema.ts ORGANIZATION_NAME_MAX). */
export const NAME_MAX = 200;

/** The Russian zones, west to east: offered first. */
export const RUSSIAN_ZONES: readonly { zone: string; city: string }[] = [
  { zone: 'Europe/Kaliningrad', city: 'Калининград' },
  { zone: 'Europe/Moscow', city: 'Москва' },
  { zone: 'Europe/Samara', city: 'Самара' },
  { zone: 'Asia/Yekaterinburg', city: 'Екатеринбург' },
  { zone: 'Asia/Omsk', city: 'Омск' },
  { zone: 'Asia/Krasnoyarsk', city: 'Красноярск' },
  { zone: 'Asia/Irkutsk', city: 'Иркутск' },
  { zone: 'Asia/Yakutsk', city: 'Якутск' },
  { zone: 'Asia/Vladivostok', city: 'Владивосток' },
  { zone: 'Asia/Magadan', city: 'Магадан' },
  { zone: 'Asia/Kamchatka', city: 'Камчатка' },
];

/** Every other IANA zone the browser knows, by name. */
export function otherZones(): string[] {
  const russian = new Set(RUSSIAN_ZONES.map((z) => z.zone));
  const all = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return all.filter((zone) => !russian.has(zone)).sort();
}

/** "GMT+5": the zone's offset now, as the browser writes it (empty when it cannot). */
export function offsetLabel(zone: string): string {
  try {
    return (
      new Intl.DateTimeFormat('ru-RU', { timeZone: zone, timeZoneName: 'shortOffset' }).formatToParts(Date.now()).find((p) => p.type === 'timeZoneName')
        ?.value ?? ''
    );
  } catch {
    return '';
  }
}

/** A zone as people read it: «Екатеринбург (Asia/Yekaterinburg)» for the Russian ones, the IANA name otherwise. */
export function zoneLabel(zone: string): string {
  const city = RUSSIAN_ZONES.find((z) => z.zone === zone)?.city;
  return city ? `${city} (${zone})` : zone;
}

/**
 * The organisation panel's state: the stored name and zone, the form, the preview of a new zone
 * (asked again on every choice; only the latest answer counts) and the save, after which the
 * signed-in user is read again so the header and every date follow the new name and zone.
 */
export function useOrganization() {
  const [stored, setStored] = useState<OrganizationSettings | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [name, setName] = useState('');
  const [zone, setZone] = useState('');
  const [preview, setPreview] = useState<TimeZonePreview | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const asked = useRef('');

  const load = useCallback(async () => {
    try {
      const reply = await api.get('/api/v1/organization');
      setStored(reply);
      setName(reply.name);
      setZone(reply.time_zone);
      setLoadError(null);
    } catch (err) {
      setLoadError(err instanceof ApiCallError ? err.message : String(err));
    }
  }, []);
  useEffect(() => void load(), [load]);

  const chooseZone = async (next: string) => {
    setZone(next);
    setPreview(null);
    setError(null);
    asked.current = next;
    if (!stored || next === stored.time_zone) return;
    try {
      const reply = await api.post('/api/v1/organization/preview', { body: { time_zone: next }, quiet: true });
      if (asked.current === next) setPreview(reply);
    } catch (err) {
      if (asked.current === next) setError(err instanceof ApiCallError ? err.message : String(err));
    }
  };

  const save = async (event: FormEvent) => {
    event.preventDefault();
    if (!stored) return;
    const trimmed = name.trim();
    if (!trimmed) {
      setError('Введите название организации');
      return;
    }
    setError(null);
    setSaving(true);
    try {
      const body: OrganizationSave = { ...(trimmed !== stored.name ? { name: trimmed } : {}), ...(zone !== stored.time_zone ? { time_zone: zone } : {}) };
      const reply = await api.put('/api/v1/organization', { body, quiet: true });
      setStored(reply);
      setName(reply.name);
      setZone(reply.time_zone);
      setPreview(null);
      notify('success', 'Настройки организации сохранены');
      await refreshCurrentUser();
    } catch (err) {
      setError(err instanceof ApiCallError ? err.message : String(err));
    } finally {
      setSaving(false);
    }
  };

  const changed = stored !== null && (name.trim() !== stored.name || zone !== stored.time_zone);
  return { stored, loadError, name, setName, zone, chooseZone, preview, error, saving, changed, save };
}
