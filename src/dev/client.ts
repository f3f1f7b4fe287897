// The dev loop's page client, served as its own file (assets/dev-client.js) before the app's
// script in dev pages only: the production build never has it. It reloads the page after a good
// rebuild (through the app, which keeps the person's work: src/dev/keep-work.ts) and shows a
// failed build, and any uncaught error, in a dialog over the page until it is fixed. A file of its
// own, so it runs even when the app's script is broken, and no inline script or style (the CSP).
import { CHANGE_EVENTS, DEV_RELOAD_EVENT, type DevProblem } from './protocol';
import './client.css';

/** The dialog on screen, or null. */
let shown: HTMLDialogElement | null = null;

/** A new element with a class and text. */
function element<K extends keyof HTMLElementTagNameMap>(tag: K, className: string, text = ''): HTMLElementTagNameMap[K] {
  const created = document.createElement(tag);
  created.className = className;
  created.textContent = text;
  return created;
}

/** Removes the dialog, if one is shown. */
function hideProblem(): void {
  shown?.remove();
  shown = null;
}

/**
 * Shows the problem in a modal dialog: role=alertdialog, so screen readers announce it; the focus
 * moves into it (its Close button) and Escape closes it, as for any modal <dialog>.
 */
function showProblem(problem: DevProblem): void {
  hideProblem();
  const dialog = element('dialog', 'dev-problem');
  dialog.setAttribute('role', 'alertdialog');
  dialog.setAttribute('aria-labelledby', 'dev-problem-title');
  dialog.setAttribute('aria-describedby', 'dev-problem-message');
  const title = element('h2', 'dev-problem-title', problem.kind === 'build' ? 'Build failed' : 'Uncaught error');
  title.id = 'dev-problem-title';
  const message = element('p', 'dev-problem-message', problem.location ? `${problem.location}: ${problem.message}` : problem.message);
  message.id = 'dev-problem-message';
  dialog.append(title, message);
  if (problem.frame) dialog.append(element('pre', 'dev-problem-frame', problem.frame));
  const hint =
    problem.kind === 'build'
      ? 'Fix it and save: the page reloads with your work kept. The last good build runs under this dialog.'
      : "The page's console has the details.";
  dialog.append(element('p', 'dev-problem-hint', hint));
  const close = element('button', 'dev-problem-close', 'Close');
  close.type = 'button';
  close.addEventListener('click', hideProblem);
  dialog.append(close);
  dialog.addEventListener('close', hideProblem);
  document.body.append(dialog);
  dialog.showModal();
  shown = dialog;
}

const events = new EventSource(CHANGE_EVENTS);
events.addEventListener('change', () => {
  hideProblem();
  // Not cancelled: no app listened (its script failed to load), so a plain reload.
  if (dispatchEvent(new Event(DEV_RELOAD_EVENT, { cancelable: true }))) location.reload();
});
events.addEventListener('build-error', (event) => showProblem(JSON.parse((event as MessageEvent<string>).data) as DevProblem));

addEventListener('error', (event) => {
  // A resource that failed to load fires `error` too, with no message: the console says it.
  if (!(event instanceof ErrorEvent)) return;
  const error = event.error as Error | undefined;
  showProblem({
    kind: 'runtime',
    message: event.message,
    location: event.filename ? `${new URL(event.filename).pathname}:${event.lineno}:${event.colno}` : '',
    frame: error?.stack ?? '',
  });
});
addEventListener('unhandledrejection', (event) => {
  const reason = event.reason as Error | undefined;
  showProblem({
    kind: 'runtime',
    message: `Unhandled rejection: ${reason?.message ?? String(event.reason)}`,
    location: '',
    frame: reason?.stack ?? '',
  });
});
