import { useRef, useState } from 'react';
import { NormFulfilmentBlock } from '../../norms/NormFulfilment';
import { Link } from 'wouter';
import { instantParam } from '../format';
import { PdfDownload } from '../PdfDownload';
import { ReportState } from '../ReportState';
import type { BlockReport, ReportBlock } from '../types';
import { useLoad } from '../useLoad';
import { computeBlockReport } from '../compute';
import { Block } from './blocks';

type Params = { structureId?: string; fromTime?: string; toTime?: string };

/** Type colours as the API gave them on the report's slices (the one source of those colours). */
function typeColors(blocks: ReportBlock[]): Map<string, string> {
  const colors = new Map<string, string>();
  for (const block of blocks) {
    const slices = block.type === 'diagram' ? block.inner : block.type === 'double_diagram' ? block.left.slices : [];
    for (const s of slices) if (s.type) colors.set(s.type, s.color);
    if (block.type === 'grouped_bar') for (const s of block.series) if (!colors.has(s.key)) colors.set(s.key, s.color);
  }
  return colors;
}

export function BlockReportContent({ report, print }: { report: BlockReport; print: boolean }) {
  const header = report.blocks.find((b) => b.type === 'header');
  const fileBase = header && header.type === 'header' ? `Отчёт ${header.structure.name} ${header.period}` : 'Отчёт';
  const colors = typeColors(report.blocks);
  return (
    <article className={print ? 'report print-layout' : 'report'} data-testid="block-report">
      {report.blocks.map((block, i) => (
        <Block key={i} index={i} block={block} print={print} fileBase={fileBase} colors={colors} />
      ))}
    </article>
  );
}

/** spec 01 "Block-based report": /report/{structureId}/{fromTime}/{toTime} and its PDF /pdf/report/…. */
export function BlockReportScreen({ pdf = false, ...params }: Params & { pdf?: boolean }) {
  const structureId = Number(params.structureId);
  const from = instantParam(params.fromTime);
  const to = instantParam(params.toTime);
  const valid = structureId > 0 && from !== null && to !== null;
  const loaded = useLoad(valid ? `${structureId}/${from}/${to}` : null, () => computeBlockReport({ structureId, from: from!, to: to! }));
  const layout = useRef<HTMLDivElement>(null);
  // The PDF waits for the norm fulfilment block below the report, so that it is in the file.
  const [fulfilmentSettled, setFulfilmentSettled] = useState(false);
  const tail = `${structureId}/${encodeURIComponent(from ?? '')}/${encodeURIComponent(to ?? '')}`;

  const title = 'Отчёт по структурной единице';
  if (!valid) return <ReportState title={title} error="Неверный адрес отчёта: нужны структурная единица и моменты начала и конца (ISO 8601)." />;
  if (loaded.state === 'loading') return <ReportState title={title} loading="Загружаем отчёт…" />;
  if (loaded.state === 'error') return <ReportState title={title} error={`Не удалось загрузить отчёт: ${loaded.message}`} />;
  const header = loaded.data.blocks.find((b) => b.type === 'header');
  const fileName = header && header.type === 'header' ? `Отчёт ${header.structure.name} ${header.period}` : 'Отчёт';
  return (
    <div className="report-screen">
      <div className="report-toolbar no-print">
        {pdf ? (
          <>
            <Link href={`/report/${tail}`}>← к отчёту</Link>
            <PdfDownload layout={layout} ready={fulfilmentSettled} fileName={fileName} />
          </>
        ) : (
          <Link href={`/pdf/report/${tail}`} className="button">
            PDF
          </Link>
        )}
      </div>
      <div ref={layout}>
        <BlockReportContent report={loaded.data} print={pdf} />
        <NormFulfilmentBlock structureId={structureId} from={from!} to={to!} print={pdf} onSettled={() => setFulfilmentSettled(true)} />
      </div>
    </div>
  );
}

/** /pdf/report/…: the print layout, made into a PDF file. */
export const BlockReportPdfScreen = (params: Params) => <BlockReportScreen {...params} pdf />;
