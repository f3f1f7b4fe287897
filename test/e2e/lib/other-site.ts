// Another site on the app's origin (a GitHub Pages user site beside its owner's project sites):
// a copy of a built site with that site's page added beside the app's files.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { copySite } from './site';

/** The other site's page, and its heading. */
export const OTHER_SITE = '/other-site/';
export const OTHER_SITE_HEADING = 'Another site on this origin';

/** A copy of `dist` with the other site's page beside the app's files. */
export function withOtherSite(dist: string): string {
  const root = copySite(dist);
  mkdirSync(path.join(root, OTHER_SITE), { recursive: true });
  writeFileSync(path.join(root, OTHER_SITE, 'index.html'), `<!doctype html><title>Other</title><h1>${OTHER_SITE_HEADING}</h1>\n`);
  return root;
}
