// What the page's script is made of (dist/bundle.json): a picture, stacked bars drawn as SVG (the
// whole file by package, then each package by module), and the same numbers in a table, which is
// the keyboard's and the screen reader's way through them. Colours come from classes in app.css:
// the CSP forbids style attributes, and our own code stands apart from third-party code.
import type { BundleGroup, BundleOutput } from '../../../contract/bundle';
import { formatNumber } from '../../../core/format';

/** The picture's width in SVG units (it scales to the page's width). */
const WIDTH = 1000;
/** One bar's label line and bar, in SVG units. */
const ROW = 46;
const BAR = 18;

/** A group's name as the page says it: `react-dom 19.3.1`, or `src/ui (our code)`. */
const groupName = (group: BundleGroup) => `${group.name} ${group.version ?? '(our code)'}`;

/** The CSS class of a segment: our own code, third-party code, or esbuild's. */
const kindOf = (group: BundleGroup | null) => (group === null ? 'esbuild' : group.own ? 'own' : 'third');

/** A share of the file, one decimal: "83.7 %". */
const percent = (bytes: number, total: number) => `${((100 * bytes) / total).toFixed(1)} %`;

/** One stacked bar: segments of the parts' bytes, scaled to the full width. */
function Bar({ y, parts, total }: { y: number; parts: { key: string; label: string; bytes: number; kind: string }[]; total: number }) {
  let x = 0;
  return (
    <g>
      {parts.map((part, index) => {
        const width = (WIDTH * part.bytes) / total;
        const at = x;
        x += width;
        return (
          <rect key={part.key} className={`seg ${part.kind}${index % 2 ? ' alt' : ''}`} x={at} y={y} width={width} height={BAR}>
            <title>{`${part.label}: ${formatNumber(part.bytes)} B`}</title>
          </rect>
        );
      })}
    </g>
  );
}

/** The picture: the file by package (and esbuild's bytes), then one bar per package by module. */
function Picture({ output }: { output: BundleOutput }) {
  const top = [
    ...output.groups.map((group) => ({ key: group.name, label: groupName(group), bytes: group.bytes, kind: kindOf(group) })),
    { key: 'esbuild', label: "esbuild's own", bytes: output.esbuild, kind: kindOf(null) },
  ];
  const own = output.groups.filter((group) => group.own).reduce((sum, group) => sum + group.bytes, 0);
  return (
    <svg
      className="chart"
      viewBox={`0 0 ${WIDTH} ${ROW * (output.groups.length + 1)}`}
      role="img"
      aria-labelledby="bundle-title bundle-desc"
    >
      <title id="bundle-title">{`What ${output.path} is made of`}</title>
      <desc id="bundle-desc">{`${formatNumber(output.bytes)} bytes: our own code ${percent(own, output.bytes)}, third-party packages ${percent(
        output.bytes - own - output.esbuild,
        output.bytes,
      )}, esbuild ${percent(output.esbuild, output.bytes)}. The table below gives every number.`}</desc>
      <text x={0} y={16}>{`The whole file, ${formatNumber(output.bytes)} B, by package`}</text>
      <Bar y={22} parts={top} total={output.bytes} />
      {output.groups.map((group, row) => (
        <g key={group.name}>
          <text x={0} y={ROW * (row + 1) + 16}>
            {`${groupName(group)}: ${formatNumber(group.bytes)} B, ${percent(group.bytes, output.bytes)}, by module`}
          </text>
          <Bar
            y={ROW * (row + 1) + 22}
            parts={group.modules.map((module) => ({ key: module.path, label: module.path, bytes: module.bytes, kind: kindOf(group) }))}
            total={group.bytes}
          />
        </g>
      ))}
    </svg>
  );
}

/** The same numbers as the picture: each package or folder, then its modules; esbuild's bytes; the file. */
function Numbers({ output }: { output: BundleOutput }) {
  return (
    // A scrollable region must be reachable by keyboard (axe: scrollable-region-focusable).
    // biome-ignore lint/a11y/noNoninteractiveTabindex: the region scrolls, and keyboard users must reach it
    <section className="scroll" aria-label="Composition" tabIndex={0}>
      <table className="composition">
        <caption>{`${output.path} by package and module: bytes in the file`}</caption>
        <thead>
          <tr>
            {['Package, folder or module', 'Version', 'Bytes', 'Share'].map((heading) => (
              <th key={heading} scope="col">
                {heading}
              </th>
            ))}
          </tr>
        </thead>
        {output.groups.map((group) => (
          <tbody key={group.name}>
            <Row
              className={`group ${kindOf(group)}`}
              name={group.own ? `${group.name} (our code)` : group.name}
              version={group.version}
              bytes={group.bytes}
              total={output.bytes}
            />
            {group.modules.map((module) => (
              <Row key={module.path} className="module" name={module.path} version={null} bytes={module.bytes} total={output.bytes} />
            ))}
          </tbody>
        ))}
        <tbody>
          <Row
            className="group esbuild"
            name="esbuild's own (banner, wrappers, helpers)"
            version={null}
            bytes={output.esbuild}
            total={output.bytes}
          />
        </tbody>
        <tfoot>
          <Row className="" name="The file" version={null} bytes={output.bytes} total={output.bytes} />
        </tfoot>
      </table>
    </section>
  );
}

/** One row of the table. */
function Row({
  className,
  name,
  version,
  bytes,
  total,
}: {
  className: string;
  name: string;
  version: string | null;
  bytes: number;
  total: number;
}) {
  return (
    <tr className={className || undefined}>
      <th scope="row">{name}</th>
      <td>{version ?? ''}</td>
      <td>{formatNumber(bytes)}</td>
      <td>{percent(bytes, total)}</td>
    </tr>
  );
}

/** The page's script: the picture, its legend, and the table. */
export default function Composition({ output }: { output: BundleOutput }) {
  return (
    <>
      <p className="legend">
        <span className="key own"></span> our own code <span className="key third"></span> third-party packages{' '}
        <span className="key esbuild"></span> esbuild's own
      </p>
      <Picture output={output} />
      <Numbers output={output} />
    </>
  );
}
