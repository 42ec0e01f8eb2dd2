import { readOrganization, updateOrganization, type OrganizationRow } from '../auth/organization.service';
import type { Db } from '../db/database';
import { conflict } from '../http/errors';
import { localDateTimeText, zoneOffsetMs } from '../time-zone';

/**
 * The demo organisation's time zone stays: its recordings' names, shifts and report days were made
 * for it, and the demo is shown to many people at once (docs/workspace.md «Организация»).
 */
export const DEMO_TIME_ZONE_FIXED = 'Часовой пояс демонстрационной организации не меняется: её записи и смены сделаны по этому поясу';

/**
 * The organisation's recordings and how many of them took their start from the file name
 * (`start_source` 'file_name': `cam{N}_YYYY-MM-DD_HH-MM-SS…`, read in the organisation's zone when
 * they were registered).
 */
async function recordingsReadFromNames(db: Db, organizationId: number): Promise<{ total: number; fromName: number }> {
  const row = await db
    .selectFrom('videos')
    .innerJoin('cameras', 'cameras.id', 'videos.camera_id')
    .innerJoin('structures', 'structures.id', 'cameras.structure_id')
    .select((eb) => [
      eb.fn.countAll<number>().as('total'),
      eb.fn.count<number>('videos.id').filterWhere('videos.start_source', '=', 'file_name').as('from_name'),
    ])
    .where('structures.organization_id', '=', organizationId)
    .executeTakeFirstOrThrow();
  return { total: Number(row.total), fromName: Number(row.from_name) };
}

function refuseDemoZone(organization: OrganizationRow, timeZone: string | undefined) {
  if (organization.is_demo && timeZone !== undefined && timeZone !== organization.time_zone) throw conflict(DEMO_TIME_ZONE_FIXED);
}

/** Saves the name and/or the time zone (already checked by the schema); answers the organisation as stored. */
export async function saveOrganization(db: Db, organizationId: number, input: { name?: string; time_zone?: string }): Promise<OrganizationRow> {
  refuseDemoZone(await readOrganization(db, organizationId), input.time_zone);
  await updateOrganization(db, organizationId, input);
  return readOrganization(db, organizationId);
}

/** What a change of the time zone would change (nothing is saved): the time now in both zones and the recordings read from file names. */
export async function previewTimeZone(db: Db, organizationId: number, timeZone: string, now = Date.now()) {
  const organization = await readOrganization(db, organizationId);
  refuseDemoZone(organization, timeZone);
  const recordings = await recordingsReadFromNames(db, organizationId);
  return {
    time_zone: organization.time_zone,
    new_time_zone: timeZone,
    now: new Date(now).toISOString(),
    now_local: localDateTimeText(now, organization.time_zone),
    new_now_local: localDateTimeText(now, timeZone),
    offset_change_minutes: Math.round((zoneOffsetMs(now, timeZone) - zoneOffsetMs(now, organization.time_zone)) / 60_000),
    recordings: recordings.total,
    recordings_from_file_name: recordings.fromName,
  };
}
