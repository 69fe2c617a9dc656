// Console warnings that say a thing once per page, however often it happens.

const warned = new Set<string>();

/** Log `message` with console.warn the first time `key` is seen; later calls are silent. */
export function warnOnce(key: string, message: string): void {
  if (warned.has(key)) return;
  warned.add(key);
  console.warn(message);
}
