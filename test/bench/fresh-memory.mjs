// How fast this machine hands a new process fresh memory: every build, dev server and browser the
// bench starts pays it. Some virtual machines are slow at it (seen here: 1 GiB touched in 3-4 s,
// with the kernel's memory-reclaim thread kdamond running), and there a bench run's absolute times
// say as much about the machine as about the code; the ratios against --compare (interleaved, same
// browser) move far less. Recorded so that runs on different machines can be compared.
import { execFileSync } from 'node:child_process';

/** How much the probe touches: enough to outweigh Node's own start, small enough to take ~1 s on a slow machine. */
const PROBE_MIB = 256;
const PAGE_BYTES = 4096;

// Written to one byte per page so that the kernel must provide each page; Buffer.alloc zero-fills,
// which touches every page too, and the loop keeps the probe honest if that ever changes.
const PROBE = `
const started = process.hrtime.bigint();
const memory = Buffer.alloc(${PROBE_MIB} * 1024 * 1024);
for (let offset = 0; offset < memory.length; offset += ${PAGE_BYTES}) memory[offset] = 1;
process.stdout.write(String(Number(process.hrtime.bigint() - started) / 1e6));
`;

/**
 * Milliseconds a new Node process takes to allocate and touch PROBE_MIB MiB, and the size it touched.
 * @returns {{ mebibytes: number, milliseconds: number }}
 */
export function freshMemoryTime() {
  const milliseconds = Number(execFileSync(process.execPath, ['-e', PROBE], { encoding: 'utf8' }));
  return { mebibytes: PROBE_MIB, milliseconds: Math.round(milliseconds) };
}
