import { AlgoInputError, runAlgorithm, type AlgoTag, type GeoCollection } from '@norma/workers/map';
import type { Db } from '../db/database';
import { PermanentJobError, type ClaimedJob, type JobHandler } from '../jobs/runner';
import { parseCollection, projectCrs, projectRow, releaseProject, storeAlgoResult } from './service';

interface AlgoPayload {
  project_id: number;
  algo_tag: AlgoTag;
}

/**
 * Runs a map algorithm (workers/src/map/algorithms.ts) on a project and stores the generated
 * network and info labels; the project stops processing when the job ends, whichever way.
 */
export function mapAlgoHandler(db: Db): JobHandler {
  const release = (job: ClaimedJob) => releaseProject(db, (job.payload as AlgoPayload).project_id, job.id);
  return {
    async run({ job, progress }) {
      const { project_id, algo_tag } = job.payload as AlgoPayload;
      const row = await projectRow(db, project_id);
      if (!row) throw new PermanentJobError('Проект карты удалён');
      const drawn = parseCollection(row.drawn_feature_collection);
      let out;
      try {
        out = runAlgorithm(
          algo_tag,
          {
            drawn: drawn as GeoCollection,
            general: parseCollection(row.general_feature_collection) as GeoCollection,
            golden: row.golden_feature_collection ? (parseCollection(row.golden_feature_collection) as GeoCollection) : null,
            crs: projectCrs(row),
          },
          progress,
        );
      } catch (err) {
        if (err instanceof AlgoInputError) throw new PermanentJobError(err.message);
        throw err;
      }
      const general = out.general as unknown as ReturnType<typeof parseCollection>;
      await storeAlgoResult(db, project_id, drawn, { general, info: out.info });
      return { metrics: out.metrics, details: out.details };
    },
    failed: release,
  };
}
