// The builder's message form (test/fixtures/screens/message.tsx, in the test sites' `form`
// variants) as the tests read it, the same way in every engine (a Playwright Page or a Tab of
// lib/driver.ts): what each control shows, and what the component's own state holds.
import { placedFixtures } from '../../harness/field-screen.mjs';
import type { RunsInPage } from './driver';

/**
 * The fixture screen as the test sites add it: "Message" at /message/, or under a name, title and
 * navOrder of its own when the app has a screen of that name or title (harness/field-screen.mjs).
 */
const MESSAGE_SCREEN = (() => {
  const placed = placedFixtures(process.cwd()).find((fixture) => fixture.source === 'message.tsx');
  if (!placed) throw new Error('test/fixtures/screens/message.tsx is missing');
  return placed;
})();

/** Where the fixture screen is (its file name is its URL). */
export const MESSAGE_PATH = MESSAGE_SCREEN.path;

/** Its title: the nav link's name and the <h1>. */
export const MESSAGE_TITLE = MESSAGE_SCREEN.title;

/** What the form's controls show, and the line the component draws from its state. */
export interface MessageForm {
  to: string;
  text: string;
  priority: string;
  urgent: boolean;
  password: string;
  /** "In this screen's state: to …; message …; …": what the component holds, not only what the DOM shows. */
  state: string;
}

/** The form as the page shows it now, or null before the screen rendered it. */
export const messageForm = (page: RunsInPage): Promise<MessageForm | null> =>
  page.evaluate(() => {
    const field = (selector: string) => document.querySelector<HTMLInputElement & HTMLSelectElement>(selector);
    const to = field('#message-to');
    const text = field('#message-text');
    const priority = field('select[name="priority"]');
    const urgent = field('.message input[type="checkbox"]');
    const password = field('#message-password');
    const state = document.querySelector('.message-state');
    if (!to || !text || !priority || !urgent || !password || !state) return null;
    return {
      to: to.value,
      text: text.value,
      priority: priority.value,
      urgent: urgent.checked,
      password: password.value,
      state: (state.textContent ?? '').replace(/\s+/g, ' ').trim(),
    };
  }, null);

/** The state line the component draws for these values (test/fixtures/screens/message.tsx). */
export const stateLine = ({ to, text, priority, urgent, password }: Omit<MessageForm, 'state'>): string =>
  `In this screen's state: to ${to}; message ${text}; priority ${priority}; urgent ${urgent ? 'yes' : 'no'}; password ${password.length} characters`.replace(
    /\s+/g,
    ' ',
  );

/** What the form's secrets show: the PIN (typed while shown as text) and the split code's boxes, joined. */
export const secretsOf = (page: RunsInPage): Promise<{ pin: string; code: string } | null> =>
  page.evaluate(() => {
    const pin = document.querySelector<HTMLInputElement>('#message-pin');
    const boxes = [...document.querySelectorAll<HTMLInputElement>('[id^="message-code-"]')];
    return pin ? { pin: pin.value, code: boxes.map((box) => box.value).join('') } : null;
  }, null);
