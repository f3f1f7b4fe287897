// /about, "What this app ships": every file of the build from audit.json, what the page's script
// is made of (bundle.json), the licences, and a link to the SBOM (sbom.cdx.json); the build
// writes both from esbuild's metafile.
import type { Audit, AuditFile } from '../../contract/audit';
import { withBase } from '../../contract/base';
import type { BundleComposition } from '../../contract/bundle';
import { formatNumber } from '../../core/format';
import { readText, useAudit, useFetched, type Fetched } from '../useFetched';
import Composition from './about/Composition';

export const title = 'What this app ships';
export const navOrder = 3;

const SIZE_COLUMNS = ['bytes', 'gzip', 'brotli'] as const;

/** Reads a response as the build's bundle.json (at module level: useFetched fetches again for a new reader). */
const readBundle = (response: Response): Promise<BundleComposition> => response.json();

/** The "What this app ships" screen, below the <h1> that Page renders. */
export default function About() {
  const audit = useAudit();
  const licences = useFetched(withBase('/licenses.txt'), readText);
  const bundle = useFetched(withBase('/bundle.json'), readBundle);
  return (
    <>
      {audit.status === 'loading' && <p>Loading…</p>}
      {audit.status === 'failed' && <p>{audit.message}</p>}
      {audit.status === 'loaded' && <FilesTable audit={audit.value} />}
      <h2>What the script is made of</h2>
      <BundleView bundle={bundle} />
      <h2>Licences of bundled code</h2>
      <p>
        <a href={withBase('/sbom.cdx.json')}>Software bill of materials</a> (CycloneDX JSON): every third-party package in the JavaScript,
        with its version, licence and hash.
      </p>
      <pre className="lic">{textOf(licences)}</pre>
    </>
  );
}

/** Every shipped file with its sizes and SRI hash, and the totals. */
function FilesTable({ audit }: { audit: Audit }) {
  const total = (column: (typeof SIZE_COLUMNS)[number]) => audit.files.reduce((sum, file) => sum + file[column], 0);
  return (
    <>
      <p>
        Version <code>{audit.version}</code>, {audit.build} build. Sizes in bytes.
      </p>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be focusable for keyboard users to scroll it (WCAG; axe's scrollable-region-focusable) */}
      <section className="scroll" aria-label="Files" tabIndex={0}>
        <table>
          <thead>
            <tr>
              {['File', 'Raw', 'Gzip', 'Brotli', 'SRI hash'].map((heading) => (
                <th key={heading}>{heading}</th>
              ))}
            </tr>
          </thead>
          <tbody>
            {audit.files.map((file) => (
              <FileRow key={file.path} file={file} />
            ))}
          </tbody>
          <tfoot>
            <tr>
              <th scope="row">{audit.files.length} files</th>
              {SIZE_COLUMNS.map((column) => (
                <td key={column}>{formatNumber(total(column))}</td>
              ))}
              <td></td>
            </tr>
          </tfoot>
        </table>
      </section>
    </>
  );
}

/** One file's row: path, raw/gzip/brotli bytes, SRI hash. */
function FileRow({ file }: { file: AuditFile }) {
  return (
    <tr>
      <th scope="row">{file.path}</th>
      {SIZE_COLUMNS.map((column) => (
        <td key={column}>{formatNumber(file[column])}</td>
      ))}
      <td>
        <code>{file.sha384}</code>
      </td>
    </tr>
  );
}

/** The page's script from bundle.json, or the sentence to show instead. */
function BundleView({ bundle }: { bundle: Fetched<BundleComposition> }) {
  if (bundle.status !== 'loaded') return <p>{bundle.status === 'failed' ? bundle.message : 'Loading…'}</p>;
  const script = bundle.value.outputs.find((output) => output.path.endsWith('.js'));
  return script ? <Composition output={script} /> : <p>The build lists no script.</p>;
}

/** What to show for a fetched text file: its text, the failure sentence, or "Loading…". */
function textOf(fetched: Fetched<string>): string {
  if (fetched.status === 'loaded') return fetched.value;
  if (fetched.status === 'failed') return fetched.message;
  return 'Loading…';
}
