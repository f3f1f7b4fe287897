// Numbers as the screens show them, the same on every machine.

/** Bytes with thousands separators: "74,805". */
export const formatNumber = (n: number): string => n.toLocaleString('en-US');

const SIZE_UNITS = ['B', 'KB', 'MB', 'GB'];

/** Bytes as a short size: "512 B", "82.3 KB", "10 GB". */
export function formatSize(bytes: number): string {
  const unit = bytes < 1 ? 0 : Math.min(SIZE_UNITS.length - 1, Math.floor(Math.log2(bytes) / 10));
  return `${Number((bytes / 1024 ** unit).toFixed(1))} ${SIZE_UNITS[unit]}`;
}

/** A time of day, or "never". */
export const formatTime = (ms: number | null): string => (ms ? new Date(ms).toLocaleTimeString() : 'never');

/** A count with its noun, singular for one: "1 note", "3 files". */
export const formatCount = (count: number, noun: string): string => `${count} ${noun}${count === 1 ? '' : 's'}`;
