/** SHA-256 of a file, read in chunks (recordings are gigabytes: never whole in memory). */
export async function hashFile(path: string): Promise<string> {
  const hasher = new Bun.CryptoHasher('sha256');
  for await (const chunk of Bun.file(path).stream()) hasher.update(chunk);
  return hasher.digest('hex');
}
