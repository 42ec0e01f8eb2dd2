import { Banner } from '../../ui/Banner';

/** What a report screen shows before its data is there: the title, and loading or the failure. */
export function ReportState({ title, loading, error }: { title: string; loading?: string; error?: string }) {
  return (
    <section className="screen report-state">
      <h1>{title}</h1>
      {loading && (
        <p className="muted" role="status">
          {loading}
        </p>
      )}
      {error && <Banner text={error} />}
    </section>
  );
}
