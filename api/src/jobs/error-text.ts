import { homedir, tmpdir } from 'node:os';
import { isAbsolute, resolve } from 'node:path';

/** Characters that end a path in a message: spaces, quotes, brackets, `:` (`путь: No space left on device`), separators of lists. */
const END = `\\s'"\`<>|:;,()\\[\\]{}`;
/** An absolute POSIX path (optionally `file:`): not inside a word, a relative path or a URL (`//`). */
const POSIX_PATH = new RegExp(`(?<![\\w.~\\-/\\\\])(?:file:)?/(?:[^/${END}]+/)+[^/${END}]*`, 'gu');
/** An absolute Windows path: `C:\\…\\name`. */
const WINDOWS_PATH = new RegExp(`(?<![\\w])[A-Za-z]:\\\\(?:[^\\\\${END}]+\\\\)+[^\\\\${END}]*`, 'gu');

const lastPart = (path: string) => path.split(/[/\\]/).filter(Boolean).pop() ?? '';

/**
 * Folders of this server a message may name: the data folder, the working folder, the temporary and
 * home folders. Cut first, whole, so that a space in one of them cannot leave part of it behind.
 */
function serverFolders(): string[] {
  const folders = [process.env.DATA_DIR ? resolve(process.env.DATA_DIR) : '', process.cwd(), tmpdir(), homedir()];
  return [...new Set(folders.filter((f) => isAbsolute(f) && f.replace(/[/\\]+$/, '').length > 1))].sort((a, b) => b.length - a.length);
}

/**
 * A message a user may see (a job's error: `jobs.error`, `videos.error`) without the server's paths:
 * every absolute path is cut to its last part, the file's name (`ENOSPC: no space left on device,
 * open '/srv/norma/objects/rec/1/.ingest-5.mp4'` → `… open '.ingest-5.mp4'`). Where the data folder
 * is, and how the storage lies in it, is nobody's business but the administrator's (the server log
 * keeps the whole message).
 */
export function withoutServerPaths(message: string): string {
  let text = message;
  for (const folder of serverFolders()) {
    const root = folder.replace(/[/\\]+$/, '');
    // The folder itself becomes `/`, so what follows is still an absolute path and is cut below.
    text = text.replaceAll(`${root}/`, '/').replaceAll(`${root}\\`, '\\').replaceAll(root, '/');
  }
  return text.replace(POSIX_PATH, lastPart).replace(WINDOWS_PATH, lastPart);
}
