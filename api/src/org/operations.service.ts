import { plural } from '@norma/core-wasm/report';
import type { Db } from '../db/database';
import type { OperationTypeCode } from '../db/schema';
import { badRequest, conflict } from '../http/errors';

/** spec 02 §5, also the server's answer to a nameless operation. */
export const OPERATION_NAME_MISSING = 'Не хватает имени у одной из операций!';

export interface OperationChange {
  id?: number;
  name: string;
  type: string;
  reference_point?: string | null;
  machine_paced?: boolean;
}

export interface OperationsSaveInput {
  changed_operations: OperationChange[];
  operations_to_delete: number[];
}

/** The operations of a structure in the order they were created, and the type code → label map. */
export async function readOperations(db: Db, structureId: number) {
  const [rows, types] = await Promise.all([
    db
      .selectFrom('operations')
      .select(['id', 'name', 'type', 'reference_point', 'machine_paced'])
      .where('structure_id', '=', structureId)
      .orderBy('id')
      .execute(),
    db.selectFrom('operation_types').select(['code', 'label']).orderBy('position').execute(),
  ]);
  return {
    operations: rows.map((r) => ({ ...r, machine_paced: r.machine_paced === 1 })),
    operation_types: Object.fromEntries(types.map((t) => [t.code, t.label])) as Record<string, string>,
  };
}

/**
 * Commits the operations editor in one transaction: updates rows with an id, inserts rows
 * without, deletes the listed ids. Everything is checked first, so a refused save changes
 * nothing: a nameless operation, an unknown type, an id of another structure (400), or the
 * deletion of an operation that markups use (409 — markups reference operations ON DELETE RESTRICT).
 */
export async function saveOperations(db: Db, structureId: number, input: OperationsSaveInput) {
  await db.transaction().execute(async (tx) => {
    const types = new Set((await tx.selectFrom('operation_types').select('code').execute()).map((t) => t.code as string));
    const own = await tx.selectFrom('operations').select(['id', 'name']).where('structure_id', '=', structureId).execute();
    const ownIds = new Map(own.map((o) => [o.id, o.name]));

    input.changed_operations.forEach((op, index) => {
      if (!op.name.trim()) throw badRequest(OPERATION_NAME_MISSING);
      if (!types.has(op.type)) throw badRequest(`Неизвестный тип операции «${op.type}» (операция ${index + 1})`);
      if (op.id !== undefined && !ownIds.has(op.id)) throw badRequest(`Операция ${op.id} не из этой структурной единицы`);
    });
    const changedIds = input.changed_operations.map((op) => op.id).filter((id): id is number => id !== undefined);
    if (new Set(changedIds).size !== changedIds.length) throw badRequest('Одна и та же операция передана дважды');
    for (const id of input.operations_to_delete) {
      if (!ownIds.has(id)) throw badRequest(`Операция ${id} не из этой структурной единицы`);
      if (changedIds.includes(id)) throw badRequest(`Операция ${id} одновременно изменяется и удаляется`);
    }

    if (input.operations_to_delete.length) {
      const used = await tx
        .selectFrom('markups')
        .select(['operation_id', tx.fn.countAll<number>().as('n')])
        .where('operation_id', 'in', input.operations_to_delete)
        .groupBy('operation_id')
        .execute();
      if (used.length) {
        const list = used.map((u) => `«${ownIds.get(u.operation_id)}» (${u.n} ${plural(Number(u.n), 'отрезок', 'отрезка', 'отрезков')})`).join(', ');
        throw conflict(`Нельзя удалить операции, которые есть в разметке: ${list}. Сначала замените их в разметке на другие операции — ничего не сохранено.`, {
          operation_ids: used.map((u) => u.operation_id),
        });
      }
      await tx.deleteFrom('operations').where('structure_id', '=', structureId).where('id', 'in', input.operations_to_delete).execute();
    }
    for (const op of input.changed_operations) {
      const values = {
        name: op.name.trim(),
        type: op.type as OperationTypeCode,
        reference_point: (op.reference_point ?? '').trim(),
        ...(op.machine_paced === undefined ? {} : { machine_paced: op.machine_paced ? 1 : 0 }),
      };
      if (op.id !== undefined) await tx.updateTable('operations').set(values).where('id', '=', op.id).where('structure_id', '=', structureId).execute();
      else
        await tx
          .insertInto('operations')
          .values({ structure_id: structureId, ...values })
          .execute();
    }
  });
  return readOperations(db, structureId);
}
