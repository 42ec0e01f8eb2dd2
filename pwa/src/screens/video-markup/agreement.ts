import type { MarkupRow } from '../../offline/markup-rows';

export interface Agreement {
  kappa: number | null;
  observedAgreement: number;
  slots: number;
  /** Intervals [start, end) in seconds where the two assessors' labels differ. */
  disagreements: { start: number; end: number; a: number | null; b: number | null }[];
}

/** The operation covering the middle of each 1-second slot, or null (unmarked). */
function labels(rows: readonly MarkupRow[], slots: number): (number | null)[] {
  const result: (number | null)[] = new Array(slots).fill(null);
  for (const row of rows) {
    for (let s = Math.max(0, Math.ceil(row.start - 0.5)); s < Math.min(slots, Math.ceil(row.end - 0.5)); s++) result[s] = row.operation_id;
  }
  return result;
}

/**
 * Cohen's kappa of two assessors over 1-second slots of the span both marked, with the slots
 * where they disagree merged into intervals — so a lead can check the quality of markup.
 */
export function agreement(a: readonly MarkupRow[], b: readonly MarkupRow[], durationSeconds: number): Agreement {
  const slots = Math.floor(durationSeconds);
  const la = labels(a, slots);
  const lb = labels(b, slots);
  const both: number[] = [];
  for (let s = 0; s < slots; s++) if (la[s] !== null || lb[s] !== null) both.push(s);
  if (both.length === 0) return { kappa: null, observedAgreement: 0, slots: 0, disagreements: [] };
  let agree = 0;
  const countA = new Map<number | null, number>();
  const countB = new Map<number | null, number>();
  for (const s of both) {
    if (la[s] === lb[s]) agree++;
    countA.set(la[s]!, (countA.get(la[s]!) ?? 0) + 1);
    countB.set(lb[s]!, (countB.get(lb[s]!) ?? 0) + 1);
  }
  const n = both.length;
  const po = agree / n;
  let pe = 0;
  for (const [label, count] of countA) pe += (count / n) * ((countB.get(label) ?? 0) / n);
  const kappa = pe === 1 ? (po === 1 ? 1 : null) : (po - pe) / (1 - pe);
  const disagreements: Agreement['disagreements'] = [];
  for (const s of both) {
    if (la[s] === lb[s]) continue;
    const last = disagreements.at(-1);
    if (last && last.end === s && last.a === la[s] && last.b === lb[s]) last.end = s + 1;
    else disagreements.push({ start: s, end: s + 1, a: la[s]!, b: lb[s]! });
  }
  return { kappa, observedAgreement: po, slots: n, disagreements };
}
