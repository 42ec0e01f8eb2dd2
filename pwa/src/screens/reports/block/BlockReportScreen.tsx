import { useRef } from 'react';
import { NormFulfilmentBlock } from '../../norms/NormFulfilment';
import { Link } from 'wouter';
import { BarChart } from '../../../charts/BarChart';
import { HumanFigure } from '../../../charts/HumanFigure';
import { HumanProportion } from '../../../charts/HumanProportion';
import { ParetoChart } from '../../../charts/ParetoChart';
import { RingPie } from '../../../charts/RingPie';
import { RoseChart } from '../../../charts/RoseChart';
import type { ExportTable } from '../../../export/table';
import { CHART_HEIGHT_PX, HUMAN_FILL_STEP_MS, OUTER_RING_LABEL_MIN_PERCENT, PIE_LABEL_MIN_PERCENT, unknownBlockText } from '../constants';
import { instantParam, num, pct, productivityRiseText } from '../format';
import { PdfDownload } from '../PdfDownload';
import { ReportState } from '../ReportState';
import { ReportTable } from '../ReportTable';
import type { BlockReport, Cell, ReportBlock } from '../types';
import { useLoad } from '../useLoad';
import { computeBlockReport } from '../../../reports-core/compute';

type Params = { structureId?: string; fromTime?: string; toTime?: string };

export const cellText = (value: Cell, digits = 2): string =>
  value === null ? '—' : typeof value === 'number' ? num(value, digits) : typeof value === 'boolean' ? (value ? 'да' : 'нет') : value;

const minutesValue = (value: number) => `${num(value, 2)}\u00a0мин`;

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

function Block({
  block,
  print,
  fileBase,
  colors,
  index,
}: {
  block: ReportBlock;
  print: boolean;
  fileBase: string;
  colors: Map<string, string>;
  index: number;
}) {
  const testId = `block-${index}-${block.type}`;
  switch (block.type) {
    case 'header':
      return (
        <header className="report-title" data-testid={testId}>
          <h1 data-pdf="title">{block.title}</h1>
          <p data-pdf="text">{block.subtitle}</p>
        </header>
      );
    case 'paragraph':
      return (
        <section className={block.tone === 'notice' ? 'report-section banner banner-info' : 'report-section'} data-testid={testId}>
          {block.title && <h2 data-pdf="heading">{block.title}</h2>}
          <p data-pdf="text" className="paragraph-text">
            {block.text}
          </p>
        </section>
      );
    case 'table': {
      const header = (c: { title: string; unit: string | null }) => (c.unit ? `${c.title}, ${c.unit}` : c.title);
      const exportTable = (): ExportTable => ({
        title: block.title,
        columns: block.columns.map(header),
        rows: [...block.rows, ...(block.total ? [block.total] : [])].map((row) => block.columns.map((c) => row[c.key] ?? null)),
      });
      return (
        <ReportTable
          title={block.title}
          fileBase={fileBase}
          print={print}
          exportTable={exportTable}
          testId={testId}
          collapsible={block.collapsible}
          collapsed={block.collapsed}
          head={
            <tr>
              {block.columns.map((c) => (
                <th key={c.key}>{header(c)}</th>
              ))}
            </tr>
          }
          body={block.rows.map((row, r) => (
            <tr key={r} data-testid="block-table-row">
              {block.columns.map((c) => (
                <td key={c.key} className={typeof row[c.key] === 'number' ? 'num' : undefined}>
                  {cellText(row[c.key] ?? null)}
                </td>
              ))}
            </tr>
          ))}
          foot={
            block.total ? (
              <tr>
                {block.columns.map((c) => (
                  <td key={c.key} className={typeof block.total![c.key] === 'number' ? 'num' : undefined}>
                    {cellText(block.total![c.key] ?? null)}
                  </td>
                ))}
              </tr>
            ) : undefined
          }
        />
      );
    }
    case 'diagram':
      return (
        <section className="report-section" data-testid={testId}>
          <h2 data-pdf="heading">{block.title}</h2>
          <div data-pdf="chart">
            <RingPie
              title={block.title}
              inner={block.inner}
              outer={block.outer}
              labelMinPercent={block.label_min_percent}
              outerLabelMinPercent={OUTER_RING_LABEL_MIN_PERCENT}
              height={CHART_HEIGHT_PX}
              formatValue={(d) => `${minutesValue(d.value)} (${pct(d.percent, 2)})`}
              formatPercent={(p) => pct(p, 1)}
            />
          </div>
          <p className="muted small" data-pdf="text">{`Всего ${minutesValue(block.total)}. Внутри — типы операций, снаружи — операции.`}</p>
        </section>
      );
    case 'pareto':
      return (
        <section className="report-section" data-testid={testId}>
          <h2 data-pdf="heading">{block.title}</h2>
          {block.bars.length === 0 ? (
            <p data-pdf="text">Потерь нет.</p>
          ) : (
            <div data-pdf="chart">
              <ParetoChart
                title={block.title}
                unit={block.unit}
                height={CHART_HEIGHT_PX}
                bars={block.bars.map((b) => ({
                  name: b.name,
                  color: colors.get(b.type) ?? '#90a4ae',
                  value: b.value,
                  cumulativePercent: b.cumulative_percent,
                }))}
                formatValue={(v) => num(v, 1)}
                formatPercent={(p) => pct(p, 0)}
              />
            </div>
          )}
          <p className="muted small" data-pdf="text">{`Всего потерь ${minutesValue(block.total)}.`}</p>
        </section>
      );
    case 'double_diagram':
      return (
        <section className="report-section" data-testid={testId}>
          <h2 data-pdf="heading">{block.title}</h2>
          <div className="chart-pair" data-pdf="chart">
            {[block.left, block.right].map((side) => (
              <figure key={side.title} className="chart-figure">
                <figcaption>{side.title}</figcaption>
                <RingPie
                  title={side.title}
                  inner={side.slices}
                  labelMinPercent={PIE_LABEL_MIN_PERCENT}
                  height={CHART_HEIGHT_PX}
                  legend="below"
                  formatValue={(d) => `${minutesValue(d.value)} (${pct(d.percent, 2)})`}
                  formatPercent={(p) => pct(p, 1)}
                />
              </figure>
            ))}
          </div>
          <p data-pdf="text">{productivityRiseText(block.productivity_rise)}</p>
        </section>
      );
    case 'human':
      return (
        <section className="report-section" data-testid={testId}>
          <h2 data-pdf="heading">{block.title}</h2>
          <div className="human-block">
            <div data-pdf="chart">
              <HumanFigure
                percent={block.percent}
                animate={!print}
                stepMs={HUMAN_FILL_STEP_MS}
                height={400}
                label={`${block.title}: ${pct(block.percent, 2)}`}
                testId="human-figure"
              />
            </div>
            <ReportTable
              title={`${block.title}: состав`}
              fileBase={fileBase}
              print={print}
              testId={`${testId}-table`}
              exportTable={() => ({
                title: block.title,
                columns: ['Вид работы', 'Время, мин', 'Доля наблюдаемого времени, %'],
                rows: [...block.rows.map((r) => [r.name, r.value, r.percent]), ['Итого', block.total.value, block.total.percent]],
              })}
              head={
                <tr>
                  <th>Вид работы</th>
                  <th>Время, мин</th>
                  <th>Доля, %</th>
                </tr>
              }
              body={block.rows.map((r) => (
                <tr key={r.key}>
                  <td>
                    <span className="swatch" style={{ background: r.color }} /> {r.name}
                  </td>
                  <td className="num">{num(r.value, 2)}</td>
                  <td className="num">{num(r.percent, 2)}</td>
                </tr>
              ))}
              foot={
                <tr>
                  <td>Итого</td>
                  <td className="num">{num(block.total.value, 2)}</td>
                  <td className="num" data-testid="human-total-percent">
                    {num(block.total.percent, 2)}
                  </td>
                </tr>
              }
            />
          </div>
        </section>
      );
    case 'human_proportion':
      return (
        <section className="report-section" data-testid={testId}>
          <h2 data-pdf="heading">{block.title}</h2>
          <div data-pdf="chart">
            <HumanProportion title={block.title} groups={block.groups} formatPercent={(p) => pct(p, 0)} />
          </div>
          <p className="muted small" data-pdf="text">{`Всего сотрудников: ${block.total}.`}</p>
        </section>
      );
    case 'grouped_bar':
      return (
        <section className="report-section" data-testid={testId}>
          <h2 data-pdf="heading">{block.title}</h2>
          <div data-pdf="chart">
            <BarChart
              title={block.title}
              unit={block.unit}
              height={CHART_HEIGHT_PX}
              stacked={block.stacked}
              valueLabels
              categories={block.categories}
              series={block.series}
              reference={block.reference_line ? { name: block.reference_line.name, values: block.reference_line.values } : null}
              formatValue={(v) => num(v, 0)}
            />
          </div>
        </section>
      );
    case 'black_diagram':
      return (
        <section className="report-section" data-testid={testId}>
          <h2 data-pdf="heading">{block.title}</h2>
          <div data-pdf="chart">
            <RoseChart title={block.title} sectors={block.sectors} height={CHART_HEIGHT_PX} formatValue={minutesValue} />
          </div>
          <p className="muted small" data-pdf="text">{`Всего ${minutesValue(block.total)}: простои и отдых сверх нормы по часам суток.`}</p>
        </section>
      );
    default: {
      const type = (block as { type: string }).type;
      return (
        <p className="banner banner-error" role="alert" data-pdf="text" data-testid="unknown-block">
          {unknownBlockText(type)}
        </p>
      );
    }
  }
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
            <PdfDownload layout={layout} ready fileName={fileName} />
          </>
        ) : (
          <Link href={`/pdf/report/${tail}`} className="button">
            PDF
          </Link>
        )}
      </div>
      <div ref={layout}>
        <BlockReportContent report={loaded.data} print={pdf} />
        <NormFulfilmentBlock structureId={structureId} from={from!} to={to!} />
      </div>
    </div>
  );
}

/** /pdf/report/…: the print layout, made into a PDF file. */
export const BlockReportPdfScreen = (params: Params) => <BlockReportScreen {...params} pdf />;
