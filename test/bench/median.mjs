// The one statistic the bench reports for N runs.

/**
 * The middle value (the lower middle for an even count); undefined for no values.
 * @param {number[]} values
 */
export function median(values) {
  if (!values.length) return undefined;
  return [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)];
}
