import {
  dayBalance,
  statement,
  timeStudy,
  type DayBalance,
  type ReportSettings,
  type Segment,
  type Shift,
  type Statement,
  type TimeStudy,
} from '@norma/core-wasm';
import { stabilityTableFor } from './reference';
import { engineStructure, type ReportSegment, type StructureContext } from './service';

/**
 * The only place the API calls the report engine (core-wasm). It turns database context into
 * engine settings and applies one rule the engine takes per call rather than per operation:
 * machine-paced operations (operations.machine_paced) are studied with the machine-work Ку.
 */
export function engineSettings(
  context: StructureContext, from: number, to: number, shifts: Shift[], unitsProduced: number | null = null,
): ReportSettings {
  return {
    from,
    to,
    structure: engineStructure(context, shifts),
    unitsProduced,
    stabilityTable: stabilityTableFor(context.reference, context.productionType, 'manual'),
  };
}

/** Time study where machine-paced main operations use the machine rows of the reference table. */
function withMachinePaced(study: TimeStudy, segments: ReportSegment[], settings: ReportSettings, context: StructureContext): TimeStudy {
  const machineIds = new Set(segments.filter((s) => s.machinePaced && s.category === 'main').map((s) => s.operationId));
  if (machineIds.size === 0) return study;
  const machineStudy = timeStudy(
    segments.filter((s) => machineIds.has(s.operationId)),
    {
      ...settings,
      structure: { ...settings.structure, machinePaced: true },
      stabilityTable: stabilityTableFor(context.reference, context.productionType, 'machine'),
    },
  );
  const operations = [...study.operations.filter((o) => !machineIds.has(o.operationId)), ...machineStudy.operations]
    .sort((a, b) => a.operationId - b.operationId);
  return {
    ...study,
    operations,
    maxOperationCount: operations.reduce((m, o) => Math.max(m, o.measurements.length), 0),
  };
}

export function runStatement(segments: ReportSegment[], settings: ReportSettings, context: StructureContext): Statement {
  const result = statement(segments as Segment[], settings);
  return { ...result, study: withMachinePaced(result.study, segments, settings, context) };
}

export function runTimeStudy(segments: ReportSegment[], settings: ReportSettings, context: StructureContext): TimeStudy {
  return withMachinePaced(timeStudy(segments as Segment[], settings), segments, settings, context);
}

export function runDayBalance(segments: Segment[], settings: ReportSettings): DayBalance {
  return dayBalance(segments, settings);
}
