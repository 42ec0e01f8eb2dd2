/** The 409 banner: the server's markup changed after the edits began; load it, or lay the edits over it. */
export function ConflictBanner({ busy, onResolve }: { busy: boolean; onResolve(keepMine: boolean): void }) {
  return (
    <div className="banner banner-error" role="alert">
      <p>
        Разметка этого видео изменилась на сервере после того, как вы начали правку. Загрузите свежую версию (ваши несохранённые изменения пропадут) или
        наложите свои изменения на неё и сохраните снова.
      </p>
      <div className="actions">
        <button type="button" className="button secondary" disabled={busy} onClick={() => onResolve(false)}>
          Загрузить версию с сервера
        </button>
        <button type="button" className="button" disabled={busy} onClick={() => onResolve(true)}>
          Наложить мои изменения
        </button>
      </div>
    </div>
  );
}
