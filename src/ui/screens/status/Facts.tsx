// The status screen's rows of facts: a definition list of [term, value].
import type { ReactNode } from 'react';

/** A definition list of [term, value] rows. */
export function Facts({ rows }: { rows: [string, ReactNode][] }) {
  return (
    <dl>
      {rows.map(([term, value]) => (
        <div key={term}>
          <dt>{term}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}
