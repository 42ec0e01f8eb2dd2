import { requireAccess, structureFrom } from '../auth/access';
import type { Db } from '../db/database';
import { errorResponses } from '../http/openapi';
import type { LineScenarioBody, NormApproveBody, NormCreateBody, NormUpdateBody } from './schema';
import { structureOfCard } from './service';

export const tags = ['Нормы'];
export const conflictResponse = {
  409: {
    description: 'Версия утверждена и не изменяется',
    content: { 'application/json': { schema: errorResponses[400].content['application/json'].schema } },
  },
};
export const body = <S extends typeof NormCreateBody | typeof NormUpdateBody | typeof NormApproveBody | typeof LineScenarioBody>(schema: S) => ({
  body: { content: { 'application/json': { schema } }, required: true },
});

/** The norms' access checks: reading needs reports.read, changing workspace.write, of the structure in the query or of the card in the path. */
export function normAccess(db: Db) {
  return {
    readStructure: requireAccess(db, 'reports.read', structureFrom.query()),
    writeStructure: requireAccess(db, 'workspace.write', structureFrom.query()),
    readCardAccess: requireAccess(db, 'reports.read', structureOfCard),
    writeCardAccess: requireAccess(db, 'workspace.write', structureOfCard),
  };
}
