// /about, "What this app ships": every file of the build from audit.json, and the licences.
import { num, useAudit, useFetched } from './audit';

const COLS = ['bytes', 'gzip', 'brotli'] as const;

/** The "What this app ships" screen, below the <h1> that Page renders. */
export function About() {
  const audit = useAudit();
  const licences = useFetched('/licenses.txt', (r) => r.text());
  return (
    <>
      {!audit ? (
        <p>Loading…</p>
      ) : typeof audit == 'string' ? (
        <p>{audit}</p>
      ) : (
        <>
          <p>
            Version <code>{audit.version}</code>, {audit.build} build. Sizes in bytes.
          </p>
          <div className="scroll" role="region" aria-label="Files" tabIndex={0}>
            <table>
              <thead>
                <tr>
                  {['File', 'Raw', 'Gzip', 'Brotli', 'SRI hash'].map((h) => (
                    <th key={h}>{h}</th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {audit.files.map((f) => (
                  <tr key={f.path}>
                    <th scope="row">{f.path}</th>
                    {COLS.map((k) => (
                      <td key={k}>{num(f[k])}</td>
                    ))}
                    <td>
                      <code>{f.sha384}</code>
                    </td>
                  </tr>
                ))}
              </tbody>
              <tfoot>
                <tr>
                  <th scope="row">{audit.files.length} files</th>
                  {COLS.map((k) => (
                    <td key={k}>{num(audit.files.reduce((n, f) => n + f[k], 0))}</td>
                  ))}
                  <td></td>
                </tr>
              </tfoot>
            </table>
          </div>
        </>
      )}
      <h2>Licences of bundled code</h2>
      <pre className="lic">{licences ?? 'Loading…'}</pre>
    </>
  );
}
