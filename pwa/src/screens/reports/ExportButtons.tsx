import { useState } from 'react';
import { saveBlob, safeFileName } from '../../export/download';
import { toCsv, toXlsx, type ExportTable } from '../../export/table';
import { notify } from '../../status/notifications';

/** The XLSX and CSV downloads of one report table. */
export function ExportButtons({ table, fileBase }: { table: () => ExportTable; fileBase: string }) {
  const [busy, setBusy] = useState(false);
  const name = (t: ExportTable, ext: string) => safeFileName(`${fileBase} — ${t.title}`) + ext;
  const xlsx = async () => {
    setBusy(true);
    try {
      const t = table();
      saveBlob(await toXlsx(t), name(t, '.xlsx'));
    } catch (error) {
      notify('error', `Не удалось выгрузить XLSX: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      setBusy(false);
    }
  };
  const csv = () => {
    const t = table();
    saveBlob(new Blob([toCsv(t)], { type: 'text/csv;charset=utf-8' }), name(t, '.csv'));
  };
  return (
    <span className="export-buttons no-print">
      <button type="button" className="button secondary small" onClick={xlsx} disabled={busy}>
        XLSX
      </button>
      <button type="button" className="button secondary small" onClick={csv}>
        CSV
      </button>
    </span>
  );
}
