// What the builder tests share (builder-inputs.test.ts, builder-files.test.ts): the probe screen
// they add to a copy of the project, the app as this checkout names it, and small writers.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { editPackageJson } from '../../e2e/lib/builder';
import { listScreens } from '../../../tools/screens.mjs';
/**
 * The screen the cases add: a file name and title no app would take, and a place in the
 * navigation after the app's last, so that what is reported is the case's fault alone, whatever
 * screens the app has.
 */
export const PROBE = {
  name: 'build-probe',
  title: 'Build probe',
  navOrder: Math.max(...listScreens(process.cwd()).map((appScreen) => appScreen.navOrder)) + 1,
};
/** The app as this checkout has it: its package.json and a screen of it, whatever the builder named them. */
export const APP = JSON.parse(readFileSync(path.join(process.cwd(), 'package.json'), 'utf8')) as {
  name: string;
  displayName?: string;
  description?: string;
};
export const APP_SCREEN = listScreens(process.cwd())[0];
/** The name the rename test gives the app: never the one it has. */
export const RENAMED = APP.name === 'field-notes' ? 'field-notes-renamed' : 'field-notes';

/** The probe screen's file. */
export const PROBE_FILE = `src/ui/screens/${PROBE.name}.tsx`;

/** A screen file's source. */
export const screen = (title: string, navOrder: string | number, body = '<p>A probe.</p>') =>
  `export const title = '${title}';\nexport const navOrder = ${navOrder};\n\nexport default function Screen() {\n  return ${body};\n}\n`;

/** Writes a file of the copy. */
export function write(dir: string, file: string, text: string): void {
  mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
  writeFileSync(path.join(dir, file), text);
}

/** The budgets of the copy's package.json replaced by `budgets`. */
export const withBudgets = (budgets: unknown) => (dir: string) => editPackageJson(dir, (pkg) => ({ ...pkg, budgets }));
