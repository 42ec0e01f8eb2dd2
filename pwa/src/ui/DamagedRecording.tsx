/**
 * A recording that ingest found damaged (cut short, unreadable data: issue 24): a «повреждена» badge
 * and the reason, so a shorter video never passes for a whole one.
 */
export function DamagedRecording({ reason, compact = false }: { reason: string; compact?: boolean }) {
  return (
    <span className="damaged-recording" data-testid="damaged">
      <span className="badge damaged" title={reason}>
        повреждена
      </span>
      {compact ? (
        <small className="field-error">{reason}</small>
      ) : (
        <span className="field-error" role="alert">
          {reason}
        </span>
      )}
    </span>
  );
}
