import { useEffect, useRef, useState } from 'react';
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

/** Parts of the statement put into the page one task after another (the print layout: all at once). */
const STAGES = 4;

/**
 * How many parts of the statement are in the page: one more each task until all are (issue 47: a
 * month's statement laid out at once was one long task on a slow CPU). Printing the screen shows all.
 */
function useStages(print: boolean): number {
  const [shown, setShown] = useState(print ? STAGES : 1);
  useEffect(() => {
    if (shown >= STAGES) return;
    const timer = setTimeout(() => setShown((n) => n + 1), 0);
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
  const rp = report.rep_param;
  const fileBase = `Ведомость ${rp.worker_name} ${rp.date}`;
  const typeLabel = (code: string) => report.slices.find((s) => s.type === code)?.name ?? code;

  return (
    <article className={print ? 'report print-layout' : 'report'} data-testid="statement">
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

      <Table1 report={report} fileBase={fileBase} print={print} />

      <LoadSection report={report} fileBase={fileBase} print={print} />

      {stage >= 2 && (
        <>
          <ObservationSheet
            table={report.measurements}
            number={2}
            title="Таблица 2. Лист наблюдений (ряд после очистки)"
            fileBase={fileBase}
            print={print}
            testId="table-2"
          />
          <StudyRule report={report} fileBase={fileBase} print={print} />
          <FluctuationChart report={report} />

          <ObservationSheet
            table={report.all_measurements}
            number={3}
            title="Таблица 3. Лист наблюдений (все замеры)"
            fileBase={fileBase}
            print={print}
            testId="table-3"
          />

          <UnitsSection report={report} />

          {!report.normative.hidden && <BalancedWork report={report} />}
        </>
      )}

      {stage >= 3 && (
        <>
          <Table4 report={report} fileBase={fileBase} print={print} />

          <TimeUseSection report={report} />
        </>
      )}

      {stage >= 4 && (
        <>
          <ParetoSection report={report} />

          <TaktSection report={report} />

          <Table5 report={report} fileBase={fileBase} print={print} typeLabel={typeLabel} />
          <Table6 report={report} fileBase={fileBase} print={print} />
        </>
      )}
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
  const loaded = useLoad(valid ? `${structureId}/${employeeId}/${from}/${to}` : null, () =>
    computeStatement({ structureId, from: from!, to: to! }, employeeId),
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
