// Wall clocks move: a phone corrects its time, a person sets it back a month, a tab sleeps. A time
// stored by an earlier page, or taken from Date.now() before the move, then lies in the future or
// far in the past. Every delay or age computed from such times goes through here, so a jump of any
// size gives a bounded wait: setTimeout runs a delay above 2^31-1 ms (24.8 days) at once (HTML,
// timer initialisation steps), which turned a clock moved back into a loop without end.

/** `ms` held to [0, windowMs] (NaN counts as 0): a delay computed from wall-clock times never exceeds its own window. */
export function withinWindow(ms: number, windowMs: number): number {
  if (!(ms > 0)) return 0;
  return Math.min(ms, windowMs);
}

/** Whether `at` (ms since epoch) lies within the last `windowMs` by this clock; a time in the future does not. */
export function isWithinLast(at: number, windowMs: number, now: number = Date.now()): boolean {
  const age = now - at;
  return age >= 0 && age <= windowMs;
}
