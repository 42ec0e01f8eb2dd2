/** An inline message on a form: what is wrong and what to do. */
export function Banner({ kind = 'error', text }: { kind?: 'error' | 'success' | 'info'; text: string | null }) {
  if (!text) return null;
  return (
    <div className={`banner banner-${kind}`} role={kind === 'error' ? 'alert' : 'status'}>
      {text}
    </div>
  );
}
