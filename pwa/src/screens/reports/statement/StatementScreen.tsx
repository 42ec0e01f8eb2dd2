import { Fragment, startTransition, useEffect, useRef, useState, type ReactNode } from 'react';
import { flushSync } from 'react-dom';
import { Link } from 'wouter';
import { NormFulfilmentBlock } from '../../norms/NormFulfilment';
import { PdfDownload } from '../PdfDownload';
import { ReportState } from '../ReportState';
import type { StatementReport } from '../types';
import { useLoad } from '../useLoad';
import { BalancedWork, FluctuationChart, LoadSection, ParetoSection, StatementHeader, TaktSection, TimeUseSection, UnitsSection } from './sections';
import { ObservationSheet, StudyRule, Table1, Table4, Table5, Table6 } from './tables';
import { computeStatement } from '../compute';
import type { StatementParams, StatementWindow } from '../statement-protocol';
import { watchFirstPart, type FirstPart } from '../statement-runner';
import { statementWindow } from './window';

type Params = StatementParams;

/** What every part of the statement is drawn from. */
type PartProps = { report: StatementReport; fileBase: string; print: boolean; typeLabel: (code: string) => string };

/**
 * The parts of the statement below its header and notices, in the spec's order, each with the step
 * it is put into the page at, one step a task (issue 47: a month's statement laid out at once was
 * one long task on a slow CPU). Table 4, the table a statement is opened for, comes first (step 1,
 * with the title); the rest fill in around it, each in its place; the statement is `aria-busy` until
 * all are in. The print layout (PDF) and printing the screen get all at once.
 */
const PARTS: { step: number; key: string; Part: (props: PartProps) => ReactNode }[] = [
  { step: 2, key: 'table1', Part: (p) => <Table1 report={p.report} fileBase={p.fileBase} print={p.print} /> },
  { step: 3, key: 'load', Part: (p) => <LoadSection report={p.report} fileBase={p.fileBase} print={p.print} /> },
  {
    step: 4,
    key: 'sheet2',
    Part: (p) => (
      <ObservationSheet
        table={p.report.measurements}
        number={2}
        title="Таблица 2. Лист наблюдений (ряд после очистки)"
        fileBase={p.fileBase}
        print={p.print}
        testId="table-2"
      />
    ),
  },
  { step: 5, key: 'studyRule', Part: (p) => <StudyRule report={p.report} fileBase={p.fileBase} print={p.print} /> },
  { step: 6, key: 'fluctuation', Part: (p) => <FluctuationChart report={p.report} /> },
  {
    step: 7,
    key: 'sheet3',
    Part: (p) => (
      <ObservationSheet
        table={p.report.all_measurements}
        number={3}
        title="Таблица 3. Лист наблюдений (все замеры)"
        fileBase={p.fileBase}
        print={p.print}
        testId="table-3"
      />
    ),
  },
  { step: 8, key: 'units', Part: (p) => <UnitsSection report={p.report} /> },
  { step: 8, key: 'balanced', Part: (p) => !p.report.normative.hidden && <BalancedWork report={p.report} /> },
  { step: 1, key: 'table4', Part: (p) => <Table4 report={p.report} fileBase={p.fileBase} print={p.print} /> },
  { step: 9, key: 'timeUse', Part: (p) => <TimeUseSection report={p.report} /> },
  { step: 10, key: 'pareto', Part: (p) => <ParetoSection report={p.report} /> },
  { step: 10, key: 'takt', Part: (p) => <TaktSection report={p.report} /> },
  { step: 11, key: 'table5', Part: (p) => <Table5 report={p.report} fileBase={p.fileBase} print={p.print} typeLabel={p.typeLabel} /> },
  { step: 12, key: 'table6', Part: (p) => <Table6 report={p.report} fileBase={p.fileBase} print={p.print} /> },
];
const STEPS = Math.max(...PARTS.map((part) => part.step));

/**
 * How many steps of the statement are in the page: one more each task until all are, each rendered
 * as a transition (React yields to input between components; only putting the part in the page is one task).
 * A report still being parsed (`finish`: its FirstPart's, statement-runner.ts) stays at step 1, table 4.
 */
function useSteps(print: boolean, finish: (() => void) | undefined): number {
  const [shown, setShown] = useState(print ? STEPS : 1);
  useEffect(() => {
    if (shown >= STEPS) return;
    const timer = finish ? undefined : setTimeout(() => startTransition(() => setShown((n) => n + 1)), 0);
    // The print is laid out right after `beforeprint`: every part must be in the page by then, the report whole.
    const all = () => {
      finish?.();
      flushSync(() => setShown(STEPS));
    };
    window.addEventListener('beforeprint', all);
    return () => {
      clearTimeout(timer);
      window.removeEventListener('beforeprint', all);
    };
  }, [shown, finish]);
  return shown;
}

/**
 * The statement report's content in the spec's order; `print` gives the layout the PDF is made from.
 * `finish`: the report is a first part, its rest still being parsed (statement-runner.ts, FirstPart).
 */
export function StatementContent({ report, print, pdfHref, finish }: { report: StatementReport; print: boolean; pdfHref?: string; finish?: () => void }) {
  const step = useSteps(print, finish);
  const rp = report.rep_param;
  const props: PartProps = {
    report,
    print,
    fileBase: `Ведомость ${rp.worker_name} ${rp.date}`,
    typeLabel: (code) => report.slices.find((s) => s.type === code)?.name ?? code,
  };

  return (
    <article className={print ? 'report print-layout' : 'report'} data-testid="statement" aria-busy={step < STEPS || undefined}>
      <StatementHeader report={report} print={print} pdfHref={pdfHref} />

      {/* Every caveat of the screen goes into the PDF too (data-pdf): «Смена наблюдалась не целиком» and the rest. */}
      {report.notices.length > 0 && (
        <div className="banner banner-info" role="status" data-pdf="text" data-testid="statement-notices">
          {report.notices.join(' ')}
        </div>
      )}
      {report.input_errors.length > 0 && (
        <div className="banner banner-error" role="alert" data-pdf="text">
          {`Ошибки разметки: ${report.input_errors.map((e) => e.message).join('; ')}`}
        </div>
      )}

      {PARTS.map(({ step: at, key, Part }) => step >= at && <Fragment key={key}>{Part(props)}</Fragment>)}
    </article>
  );
}

/**
 * The first part of the statement of `key` while the rest is parsed (statement-runner.ts, FirstPart):
 * table 4 of a month is drawn without waiting for the measurements (issue 47). Null for the PDF,
 * which is laid out whole, and once the statement is whole.
 */
function useFirstPart(target: StatementWindow | null, key: string | null, pdf: boolean): FirstPart | null {
  const [first, setFirst] = useState<{ key: string; part: FirstPart } | null>(null);
  useEffect(() => {
    if (!target || !key || pdf) return;
    return watchFirstPart(target, (part) => startTransition(() => setFirst({ key, part })));
    // `target` is read anew each render; `key` says when it changes.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, pdf]);
  // Drawn (or passed over, the statement being whole by then): the rest of it is parsed on.
  useEffect(() => {
    first?.part.shown();
  }, [first]);
  return first && first.key === key ? first.part : null;
}

/** spec 01 "Statement report": /statement/{structureId}/{employeeId}/{fromTime}/{toTime}[/pdf]. */
export function StatementScreen({ pdf = false, ...params }: Params & { pdf?: boolean }) {
  const target = statementWindow(params);
  const key = target ? `${target.structureId}/${target.employeeId}/${target.from}/${target.to}` : null;
  // The statement started with the app at this address is picked up, not computed again (statement-runner.ts, startStatementEarly).
  const loaded = useLoad(key, (signal) => computeStatement(target!, target!.employeeId, signal));
  const first = useFirstPart(target, key, pdf);
  const layout = useRef<HTMLDivElement>(null);
  // The PDF waits for the norm fulfilment block below the statement, so that it is in the file.
  const [fulfilmentSettled, setFulfilmentSettled] = useState(false);

  const title = 'Ведомость: отчёт по сотруднику';
  if (!target) return <ReportState title={title} error="Неверный адрес отчёта: нужны структурная единица, сотрудник и моменты начала и конца (ISO 8601)." />;
  if (loaded.state === 'error') return <ReportState title={title} error={`Не удалось загрузить ведомость: ${loaded.message}`} />;
  if (loaded.state === 'loading' && !first) return <ReportState title={title} loading="Загружаем ведомость…" />;
  const { structureId, employeeId, from, to } = target;
  const base = `/statement/${structureId}/${employeeId}/${encodeURIComponent(from)}/${encodeURIComponent(to)}`;
  const report = loaded.state === 'ready' ? loaded.data : first!.report;
  const finish = loaded.state === 'ready' ? undefined : first!.finish;
  return (
    <div className="report-screen">
      {pdf && (
        <div className="report-toolbar no-print">
          <Link href={base}>← к отчёту</Link>
          <PdfDownload layout={layout} ready={fulfilmentSettled} fileName={`Ведомость ${report.rep_param.worker_name} ${report.rep_param.date}`} />
        </div>
      )}
      <div ref={layout}>
        <StatementContent report={report} print={pdf} pdfHref={`${base}/pdf`} finish={finish} />
        <NormFulfilmentBlock structureId={structureId} from={from} to={to} employeeId={employeeId} print={pdf} onSettled={() => setFulfilmentSettled(true)} />
      </div>
    </div>
  );
}

/** The /pdf variant: the print layout, made into a PDF file. */
export const StatementPdfScreen = (params: Params) => <StatementScreen {...params} pdf />;
