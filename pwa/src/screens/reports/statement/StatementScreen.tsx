import { startTransition, useEffect, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import { Link } from 'wouter';
import { instantParam } from '../format';
import { NormFulfilmentBlock } from '../../norms/NormFulfilment';
import { PdfDownload } from '../PdfDownload';
import { ReportState } from '../ReportState';
import type { StatementReport } from '../types';
import { useLoad } from '../useLoad';
import { BalancedWork, FluctuationChart, LoadSection, ParetoSection, StatementHeader, TaktSection, TimeUseSection, UnitsSection } from './sections';
import { ObservationSheet, StudyRule, Table1, Table4, Table5, Table6 } from './tables';
import { computeStatement } from '../compute';

type Params = { structureId?: string; employeeId?: string; fromTime?: string; toTime?: string };

/**
 * The parts of the statement, in the order they are put into the page, one task after another
 * (issue 47: a month's statement laid out at once was one long task on a slow CPU). Table 4, the
 * table a statement is opened for, comes first, with the title; the rest fill in around it, each in
 * its place of the spec's order; the statement is `aria-busy` until all are in. The print layout (PDF)
 * and printing the screen get all at once.
 */
const STAGE = {
  table4: 1,
  table1: 2,
  load: 3,
  sheet2: 4,
  studyRule: 5,
  fluctuation: 6,
  sheet3: 7,
  units: 8,
  timeUse: 9,
  losses: 10,
  table5: 11,
  table6: 12,
} as const;
const STAGES = STAGE.table6;

/**
 * How many parts of the statement are in the page: one more each task until all are, each rendered
 * as a transition (React yields to input between components; only putting the part in the page is one task).
 */
function useStages(print: boolean): number {
  const [shown, setShown] = useState(print ? STAGES : 1);
  useEffect(() => {
    if (shown >= STAGES) return;
    const timer = setTimeout(() => startTransition(() => setShown((n) => n + 1)), 0);
    // The print is laid out right after `beforeprint`: every part must be in the page by then.
    const all = () => flushSync(() => setShown(STAGES));
    window.addEventListener('beforeprint', all);
    return () => {
      clearTimeout(timer);
      window.removeEventListener('beforeprint', all);
    };
  }, [shown]);
  return shown;
}

/** The statement report's content in the spec's order; `print` gives the layout the PDF is made from. */
export function StatementContent({ report, print, pdfHref }: { report: StatementReport; print: boolean; pdfHref?: string }) {
  const stage = useStages(print);
  const at = (part: number) => stage >= part;
  const rp = report.rep_param;
  const fileBase = `Ведомость ${rp.worker_name} ${rp.date}`;
  const typeLabel = (code: string) => report.slices.find((s) => s.type === code)?.name ?? code;

  return (
    <article className={print ? 'report print-layout' : 'report'} data-testid="statement" aria-busy={stage < STAGES || undefined}>
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

      {at(STAGE.table1) && <Table1 report={report} fileBase={fileBase} print={print} />}

      {at(STAGE.load) && <LoadSection report={report} fileBase={fileBase} print={print} />}

      {at(STAGE.sheet2) && (
        <ObservationSheet
          table={report.measurements}
          number={2}
          title="Таблица 2. Лист наблюдений (ряд после очистки)"
          fileBase={fileBase}
          print={print}
          testId="table-2"
        />
      )}
      {at(STAGE.studyRule) && <StudyRule report={report} fileBase={fileBase} print={print} />}
      {at(STAGE.fluctuation) && <FluctuationChart report={report} />}

      {at(STAGE.sheet3) && (
        <ObservationSheet
          table={report.all_measurements}
          number={3}
          title="Таблица 3. Лист наблюдений (все замеры)"
          fileBase={fileBase}
          print={print}
          testId="table-3"
        />
      )}

      {at(STAGE.units) && (
        <>
          <UnitsSection report={report} />
          {!report.normative.hidden && <BalancedWork report={report} />}
        </>
      )}

      {at(STAGE.table4) && <Table4 report={report} fileBase={fileBase} print={print} />}

      {at(STAGE.timeUse) && <TimeUseSection report={report} />}

      {at(STAGE.losses) && (
        <>
          <ParetoSection report={report} />
          <TaktSection report={report} />
        </>
      )}

      {at(STAGE.table5) && <Table5 report={report} fileBase={fileBase} print={print} typeLabel={typeLabel} />}
      {at(STAGE.table6) && <Table6 report={report} fileBase={fileBase} print={print} />}
    </article>
  );
}

/** spec 01 "Statement report": /statement/{structureId}/{employeeId}/{fromTime}/{toTime}[/pdf]. */
export function StatementScreen({ pdf = false, ...params }: Params & { pdf?: boolean }) {
  const structureId = Number(params.structureId);
  const employeeId = Number(params.employeeId);
  const from = instantParam(params.fromTime);
  const to = instantParam(params.toTime);
  const valid = structureId > 0 && employeeId > 0 && from !== null && to !== null;
  const loaded = useLoad(valid ? `${structureId}/${employeeId}/${from}/${to}` : null, (signal) =>
    computeStatement({ structureId, from: from!, to: to! }, employeeId, signal),
  );
  const layout = useRef<HTMLDivElement>(null);
  // The PDF waits for the norm fulfilment block below the statement, so that it is in the file.
  const [fulfilmentSettled, setFulfilmentSettled] = useState(false);
  const base = `/statement/${structureId}/${employeeId}/${encodeURIComponent(from ?? '')}/${encodeURIComponent(to ?? '')}`;

  const title = 'Ведомость: отчёт по сотруднику';
  if (!valid) return <ReportState title={title} error="Неверный адрес отчёта: нужны структурная единица, сотрудник и моменты начала и конца (ISO 8601)." />;
  if (loaded.state === 'loading') return <ReportState title={title} loading="Загружаем ведомость…" />;
  if (loaded.state === 'error') return <ReportState title={title} error={`Не удалось загрузить ведомость: ${loaded.message}`} />;
  const report = loaded.data;
  return (
    <div className="report-screen">
      {pdf && (
        <div className="report-toolbar no-print">
          <Link href={base}>← к отчёту</Link>
          <PdfDownload layout={layout} ready={fulfilmentSettled} fileName={`Ведомость ${report.rep_param.worker_name} ${report.rep_param.date}`} />
        </div>
      )}
      <div ref={layout}>
        <StatementContent report={report} print={pdf} pdfHref={`${base}/pdf`} />
        <NormFulfilmentBlock structureId={structureId} from={from!} to={to!} employeeId={employeeId} print={pdf} onSettled={() => setFulfilmentSettled(true)} />
      </div>
    </div>
  );
}

/** The /pdf variant: the print layout, made into a PDF file. */
export const StatementPdfScreen = (params: Params) => <StatementScreen {...params} pdf />;
