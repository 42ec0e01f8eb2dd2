/** Saves a Blob as a file through a temporary link (works offline, no server round trip). */
export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 30_000);
}

/** A file name without characters file systems refuse. */
export function safeFileName(name: string): string {
  return (
    name
      .replace(/[\\/:*?"<>|\p{Cc}]+/gu, '_')
      .replace(/\s+/g, ' ')
      .trim()
      .slice(0, 150) || 'отчёт'
  );
}
