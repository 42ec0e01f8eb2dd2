import { DwgLimitError, writeDwg, writeDxf, type DwgTextEncoding, type GeoCollection } from '@norma/workers/map';
import type { Db } from '../db/database';
import { PermanentJobError, type JobHandler } from '../jobs/runner';
import type { ObjectStore } from '../storage/object-store';
import { drawingOf, fixProjectCrs, parseCollection, projectCrs, projectRow } from './service';

interface ExportPayload {
  project_id: number;
  format: 'dxf' | 'dwg';
  /** DWG only; absent in jobs queued before it existed — today's form then. */
  text_encoding?: DwgTextEncoding;
}

/**
 * Writes the project drawing as DXF or DWG, in the project's coordinate reference, into the object
 * store (exports/map/<job>.dxf|.dwg) with the reference's WKT beside it (<job>.prj). The same drawing
 * gives the same bytes: the DWG's dates are the writer's fixed one, not the clock nor the project's
 * last change (running an algorithm again changes that without changing the drawing, issue 46).
 */
export function mapExportHandler(db: Db, storage: ObjectStore): JobHandler {
  return {
    async run({ job, progress }) {
      const { project_id, format, text_encoding } = job.payload as ExportPayload;
      const row = await projectRow(db, project_id);
      if (!row) throw new PermanentJobError('Проект карты удалён');
      const drawing = drawingOf(parseCollection(row.drawn_feature_collection), parseCollection(row.general_feature_collection));
      if (drawing.features.length === 0) throw new PermanentJobError('Проект пуст: нарисуйте что-нибудь перед выгрузкой');
      const crs = projectCrs(row);
      // A project from before 0016: its reference is fixed now, so the next export uses the same one.
      if (!row.crs && crs) await fixProjectCrs(db, row.id, crs);
      const info = parseCollection(row.info_feature_collection) as GeoCollection;
      const onShare = (share: number) => progress(5 + share * 85);
      let out;
      try {
        out =
          format === 'dwg'
            ? writeDwg(drawing as GeoCollection, info, onShare, { guid: projectGuid(row.id), textEncoding: text_encoding ?? 'unicode' }, crs)
            : writeDxf(drawing as GeoCollection, info, onShare, crs);
      } catch (err) {
        if (err instanceof DwgLimitError) throw new PermanentJobError(err.message);
        throw err;
      }
      const key = `exports/map/${job.id}.${format}`;
      const prjKey = `exports/map/${job.id}.prj`;
      await storage.put(key, out.bytes);
      await storage.put(prjKey, out.projection.wkt);
      return { key, filename: `output.${format}`, prj_key: prjKey, counts: out.counts, crs: out.projection.definition, crs_name: out.projection.name };
    },
  };
}

/** The drawing's GUID, the same for every export of one project. */
const projectGuid = (id: number) => `{${id.toString(16).toUpperCase().padStart(8, '0')}-0000-4000-8000-000000000000}`;
