import { BarChart } from '../../../charts/BarChart';
import { HumanFigure } from '../../../charts/HumanFigure';
import { HumanProportion } from '../../../charts/HumanProportion';
import { ParetoChart } from '../../../charts/ParetoChart';
import { RingPie } from '../../../charts/RingPie';
import { RoseChart } from '../../../charts/RoseChart';
import { CHART_HEIGHT_PX, HUMAN_FILL_STEP_MS, OUTER_RING_LABEL_MIN_PERCENT, PIE_LABEL_MIN_PERCENT, unknownBlockText } from '../constants';
import { num, pct, productivityRiseText } from '../format';
import { ColumnTable, type Column } from '../ColumnTable';
import { ReportTable } from '../ReportTable';
import type { Cell, ReportBlock } from '../types';

const cellText = (value: Cell, digits = 2): string =>
  value === null ? '—' : typeof value === 'number' ? num(value, digits) : typeof value === 'boolean' ? (value ? 'да' : 'нет') : value;

const minutesValue = (value: number) => `${num(value, 2)}\u00a0мин`;

/** One kind of report block, as the API sends it. */
type BlockOf<T extends ReportBlock['type']> = Extract<ReportBlock, { type: T }>;

/** What every block is drawn with: its data and its test id (block-{index}-{type}). */
interface BlockProps<T extends ReportBlock['type']> {
  block: BlockOf<T>;
  testId: string;
}

/** What a block with a table needs besides: the print layout flag and the export file's name. */
interface TableBlockProps<T extends ReportBlock['type']> extends BlockProps<T> {
  print: boolean;
  fileBase: string;
}

function HeaderBlock({ block, testId }: BlockProps<'header'>) {
  return (
    <header className="report-title" data-testid={testId}>
      <h1 data-pdf="title">{block.title}</h1>
      <p data-pdf="text">{block.subtitle}</p>
    </header>
  );
}

function ParagraphBlock({ block, testId }: BlockProps<'paragraph'>) {
  return (
    <section className={block.tone === 'notice' ? 'report-section banner banner-info' : 'report-section'} data-testid={testId}>
      {block.title && <h2 data-pdf="heading">{block.title}</h2>}
      <p data-pdf="text" className="paragraph-text">
        {block.text}
      </p>
    </section>
  );
}

/**
 * A table block. Those that grow with the window or the staff (the shift-days, the employees, the
 * operations' time study) scroll in a box of their own past VIRTUAL_FROM rows and build only the
 * rows in view (ColumnTable `virtual`, issue 47); printing and the PDF still show every row.
 */
function TableBlock({ block, testId, print, fileBase }: TableBlockProps<'table'>) {
  type Row = BlockOf<'table'>['rows'][number];
  const columns: Column<Row>[] = block.columns.map((c) => ({
    title: c.unit ? `${c.title}, ${c.unit}` : c.title,
    show: (row) => cellText(row[c.key] ?? null),
    value: (row) => row[c.key] ?? null,
    cell: (row) => ({ className: typeof row[c.key] === 'number' ? 'num' : undefined }),
  }));
  return (
    <ColumnTable
      title={block.title}
      fileBase={fileBase}
      print={print}
      testId={testId}
      testPrefix="block-table"
      collapsible={block.collapsible}
      collapsed={block.collapsed}
      columns={columns}
      rows={block.rows}
      total={block.total ? [block.total] : []}
      rowKey={(_, r) => r}
      virtual
    />
  );
}

function DiagramBlock({ block, testId }: BlockProps<'diagram'>) {
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
}

function ParetoBlock({ block, testId, colors }: BlockProps<'pareto'> & { colors: Map<string, string> }) {
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
}

function DoubleDiagramBlock({ block, testId }: BlockProps<'double_diagram'>) {
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
}

function HumanBlock({ block, testId, print, fileBase }: TableBlockProps<'human'>) {
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
}

function HumanProportionBlock({ block, testId }: BlockProps<'human_proportion'>) {
  return (
    <section className="report-section" data-testid={testId}>
      <h2 data-pdf="heading">{block.title}</h2>
      <div data-pdf="chart">
        <HumanProportion title={block.title} groups={block.groups} formatPercent={(p) => pct(p, 0)} />
      </div>
      <p className="muted small" data-pdf="text">{`Всего сотрудников: ${block.total}.`}</p>
    </section>
  );
}

function GroupedBarBlock({ block, testId }: BlockProps<'grouped_bar'>) {
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
}

function BlackDiagramBlock({ block, testId }: BlockProps<'black_diagram'>) {
  return (
    <section className="report-section" data-testid={testId}>
      <h2 data-pdf="heading">{block.title}</h2>
      <div data-pdf="chart">
        <RoseChart title={block.title} sectors={block.sectors} height={CHART_HEIGHT_PX} formatValue={minutesValue} />
      </div>
      <p className="muted small" data-pdf="text">{`Всего ${minutesValue(block.total)}: простои и отдых сверх нормы по часам суток.`}</p>
    </section>
  );
}

interface Props {
  block: ReportBlock;
  print: boolean;
  fileBase: string;
  colors: Map<string, string>;
  index: number;
}

/** One block of the report, drawn by its type; a type this app does not know is said in place. */
export function Block({ block, print, fileBase, colors, index }: Props) {
  const testId = `block-${index}-${block.type}`;
  switch (block.type) {
    case 'header':
      return <HeaderBlock block={block} testId={testId} />;
    case 'paragraph':
      return <ParagraphBlock block={block} testId={testId} />;
    case 'table':
      return <TableBlock block={block} testId={testId} print={print} fileBase={fileBase} />;
    case 'diagram':
      return <DiagramBlock block={block} testId={testId} />;
    case 'pareto':
      return <ParetoBlock block={block} testId={testId} colors={colors} />;
    case 'double_diagram':
      return <DoubleDiagramBlock block={block} testId={testId} />;
    case 'human':
      return <HumanBlock block={block} testId={testId} print={print} fileBase={fileBase} />;
    case 'human_proportion':
      return <HumanProportionBlock block={block} testId={testId} />;
    case 'grouped_bar':
      return <GroupedBarBlock block={block} testId={testId} />;
    case 'black_diagram':
      return <BlackDiagramBlock block={block} testId={testId} />;
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
