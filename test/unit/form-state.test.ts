// The fields of a screen kept across a reload the app makes (src/reload/form-state.ts, carried by
// the resume point): which controls are kept (changed by the person, no secrets, not opted out),
// how they are found again (id, name, label, place), that a framework hears of each restored value
// (its events), that the app's own value wins, and what the log says. Real browsers with React and
// Preact controlled components: test/e2e/resume-fields.test.ts.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { LOG_KEY } from '../../src/reload/connectivity';
import { readSavedFields } from '../../src/reload/field-restore';
import { changedFields, NO_RESTORE_ATTRIBUTE, startFieldMemory } from '../../src/reload/form-state';
import { saveResumePoint } from '../../src/reload/resume-point';
import { resumeAfterReload } from '../../src/reload/resume-restore';
import { domPerTest } from './dom';

const test = suite('form state');
const each = domPerTest(test);

/** A builder's form: one control found by id, by name, by label and by place, and the secrets. */
const FORM = `
  <label for="to">To</label><input id="to" type="text">
  <textarea name="body"></textarea>
  <label>Priority <select><option value="low">Low</option><option value="normal" selected>Normal</option><option value="high">High</option></select></label>
  <label><input type="checkbox"> Urgent</label>
  <div contenteditable="true"></div>
  <label for="pw">Password</label><input id="pw" type="password">
  <input id="code" type="text" autocomplete="one-time-code">
  <input id="secret-note" type="text" ${NO_RESTORE_ATTRIBUTE}>
  <input id="file" type="file">`;

const page = () => each.dom.win.document;
const control = <T = HTMLInputElement>(selector: string) => page().querySelector(selector) as unknown as T;
const render = () => {
  page().body.innerHTML = FORM;
};

/** What a person's edit does: the focus, the new state, the events the browser fires. */
function edit(selector: string, change: (element: HTMLInputElement & HTMLSelectElement) => void): void {
  const element = control<HTMLInputElement & HTMLSelectElement>(selector);
  element.focus();
  change(element);
  element.dispatchEvent(new Event('input', { bubbles: true }));
  element.dispatchEvent(new Event('change', { bubbles: true }));
}

/** Fills every control of FORM. */
function fillEverything(): void {
  edit('#to', (e) => {
    e.value = 'ada@example.org';
  });
  edit('textarea', (e) => {
    e.value = 'hello';
  });
  edit('select', (e) => {
    e.value = 'high';
  });
  control('input[type="checkbox"]').click();
  edit('[contenteditable]', (e) => {
    e.textContent = 'edited';
  });
  for (const secret of ['#pw', '#code', '#secret-note'])
    edit(secret, (e) => {
      e.value = 'secret';
    });
}

/** A reload: the same sessionStorage, a new page rendered from scratch (by `renderAfter`), the resume point taken. */
async function reload(renderAfter: () => void = render): Promise<void> {
  each.stop?.();
  page().body.innerHTML = '';
  each.stop = startFieldMemory();
  const stopResume = resumeAfterReload();
  const stopMemory = each.stop;
  each.stop = () => {
    stopResume();
    stopMemory();
  };
  renderAfter();
  await each.dom.settle();
}

/** The log's last entry, as the status page shows it. */
const lastLogLine = () => {
  const entries = JSON.parse(sessionStorage.getItem(LOG_KEY) ?? '[]') as { kind: string; detail?: string }[];
  const last = entries.at(-1);
  return last && `${last.kind}: ${last.detail}`;
};

test.before.each(() => {
  render();
  each.stop = startFieldMemory();
});

test('every control the person changed is kept with what it showed before; secrets and opted-out fields never', () => {
  fillEverything();
  assert.equal(changedFields(), [
    { key: 'input[text] id=to', before: '', value: 'ada@example.org' },
    { key: 'textarea name=body', before: '', value: 'hello' },
    { key: 'select label=Priority', before: ['normal'], value: ['high'] },
    { key: 'input[checkbox] label=Urgent', before: false, value: true },
    { key: 'div place=4', before: '', value: 'edited' },
  ]);
});

test('secrets by their life and shape: a password shown as text, a card or credential field, the boxes of a split code', async () => {
  page().body.innerHTML = `
    <label for="to">To</label><input id="to" type="text">
    <label for="pin">PIN</label><input id="pin" type="password"><button id="show">Show</button>
    <label for="card-name">Name on card</label><input id="card-name" autocomplete="billing cc-name">
    <label for="user">User</label><input id="user" autocomplete="username">
    <label for="new-pw">New</label><input id="new-pw" type="text" autocomplete="new-password">
    <fieldset><legend>Code</legend>${'<input inputmode="numeric" maxlength="1">'.repeat(4)}</fieldset>`;
  // The "Show" toggle as UI kits write it: the field's type becomes text, and the PIN is typed while shown.
  control('#pin').setAttribute('type', 'text');
  edit('#pin', (e) => {
    e.value = '4711';
  });
  for (const selector of ['#to', '#card-name', '#user', '#new-pw'])
    edit(selector, (e) => {
      e.value = `typed in ${selector}`;
    });
  for (const box of [1, 2, 3, 4])
    edit(`fieldset input:nth-of-type(${box})`, (e) => {
      e.value = String(box);
    });
  // Hidden again before the reload, or still shown: never kept either way.
  assert.equal(changedFields(), [
    { key: 'input[text] id=to', before: '', value: 'typed in #to' },
    { key: 'input[text] id=user', before: '', value: 'typed in #user' },
  ]);
  saveResumePoint();
  const key = Object.keys(sessionStorage).find((k) => k.endsWith('resume')) ?? '';
  assert.not.match(sessionStorage.getItem(key) ?? '', /4711|card-name|new-pw|place/, 'nothing of theirs in storage');
  // Never restored either, even from a resume point that holds them (written by an older version).
  const point = JSON.parse(sessionStorage.getItem(key) ?? '{}');
  point.fields.push(
    { key: 'input[text] id=card-name', before: '', value: 'from an older version' },
    { key: 'input[text] place=4', before: '', value: '9' },
  );
  sessionStorage.setItem(key, JSON.stringify(point));
  const markup = page().body.innerHTML;
  await reload(() => {
    page().body.innerHTML = markup;
    for (const input of page().querySelectorAll('input')) (input as unknown as HTMLInputElement).value = '';
  });
  assert.is(control('#user').value, 'typed in #user');
  assert.is(control('#card-name').value, '');
  assert.ok([...page().querySelectorAll('fieldset input')].every((box) => (box as unknown as HTMLInputElement).value === ''));
  await each.dom.tick(3000); // the restore waits this long for fields still missing, then logs
  assert.is(
    lastLogLine(),
    'fields-restored: 2 of 4 came back, 2 not on the screen',
    'the card field and the code box are no fields to fill',
  );
});

test('a control changed and changed back, or never touched, is not kept', () => {
  edit('#to', (e) => {
    e.value = 'x';
  });
  edit('#to', (e) => {
    e.value = '';
  });
  assert.equal(changedFields(), []);
});

test('after the reload every kept control comes back, and the page hears it as an edit (the events frameworks listen to)', async () => {
  fillEverything();
  saveResumePoint();
  const heard: string[] = [];
  await reload(() => {
    render();
    for (const type of ['input', 'change', 'click'])
      page().body.addEventListener(type, (event) => heard.push(`${type} ${(event.target as unknown as Element).localName}`));
  });
  assert.is(control('#to').value, 'ada@example.org');
  assert.is(control<HTMLTextAreaElement>('textarea').value, 'hello');
  assert.is(control<HTMLSelectElement>('select').value, 'high');
  assert.is(control('input[type="checkbox"]').checked, true);
  assert.is(control<HTMLElement>('[contenteditable]').textContent, 'edited');
  for (const secret of ['#pw', '#code', '#secret-note']) assert.is(control(secret).value, '', `${secret} is never kept`);
  assert.ok(heard.includes('input textarea') && heard.includes('change select') && heard.includes('click input'), heard.join(', '));
  assert.is(lastLogLine(), 'fields-restored: 5 of 5 came back');
});

test("the app's own value wins: a control that shows something else than before the change is left as it is", async () => {
  edit('textarea', (e) => {
    e.value = 'an older copy';
  });
  saveResumePoint();
  await reload(() => {
    render();
    // The app restored its own, newer text into the field.
    control<HTMLTextAreaElement>('textarea').value = 'the newer text the app saved';
  });
  assert.is(control<HTMLTextAreaElement>('textarea').value, 'the newer text the app saved');
  assert.is(lastLogLine(), 'fields-restored: 0 of 1 came back, 1 left as the page shows it');
});

test('a field already showing its value (the app or the browser put it back) came back, and the page hears of it again', async () => {
  edit('textarea', (e) => {
    e.value = 'saved by the app';
  });
  saveResumePoint();
  let heard = 0;
  await reload(() => {
    render();
    control<HTMLTextAreaElement>('textarea').value = 'saved by the app';
    control<HTMLTextAreaElement>('textarea').addEventListener('input', () => heard++);
  });
  assert.is(control<HTMLTextAreaElement>('textarea').value, 'saved by the app');
  assert.is(heard, 1, 'a framework that hydrated over the value hears it');
  assert.is(lastLogLine(), 'fields-restored: 1 of 1 came back');
});

test('a checkbox already ticked is announced with a click that leaves it ticked', async () => {
  control('input[type="checkbox"]').click();
  saveResumePoint();
  const clicks: boolean[] = [];
  await reload(() => {
    render();
    control('input[type="checkbox"]').checked = true;
    control('input[type="checkbox"]').addEventListener('click', (event) =>
      clicks.push((event.target as unknown as HTMLInputElement).checked),
    );
  });
  assert.equal(clicks, [true]);
  assert.is(control('input[type="checkbox"]').checked, true);
});

test('a field that is not on the new screen is skipped, and the log says how many could not come back', async () => {
  edit('#to', (e) => {
    e.value = 'ada';
  });
  edit('textarea', (e) => {
    e.value = 'hello';
  });
  saveResumePoint();
  // The update's screen has no "To" field any more.
  await reload(() => {
    render();
    control('#to').remove();
  });
  await each.dom.tick(10_000);
  assert.is(control<HTMLTextAreaElement>('textarea').value, 'hello');
  assert.is(lastLogLine(), 'fields-restored: 1 of 2 came back, 1 not on the screen');
});

test('a control rendered late (after the data loads) is restored when it appears', async () => {
  edit('textarea', (e) => {
    e.value = 'hello';
  });
  saveResumePoint();
  await reload(() => {});
  render();
  await each.dom.settle();
  assert.is(control<HTMLTextAreaElement>('textarea').value, 'hello');
});

test('a restored value is still kept if another reload comes before the app saves it', async () => {
  edit('textarea', (e) => {
    e.value = 'hello';
  });
  saveResumePoint();
  await reload();
  saveResumePoint();
  await reload();
  assert.is(control<HTMLTextAreaElement>('textarea').value, 'hello');
});

test('a page replaced again right after the reload, before the person acted, passes the fields on (the kill switch navigates its pages as they reload)', async () => {
  edit('textarea', (e) => {
    e.value = 'hello';
  });
  saveResumePoint();
  // Replaced before its screen rendered, then again after it restored.
  await reload(() => {});
  each.dom.pagehide();
  await reload();
  assert.is(control<HTMLTextAreaElement>('textarea').value, 'hello');
  each.dom.pagehide();
  await reload();
  assert.is(control<HTMLTextAreaElement>('textarea').value, 'hello');
});

test('once the person acted, a later unload passes nothing on', async () => {
  edit('textarea', (e) => {
    e.value = 'hello';
  });
  saveResumePoint();
  await reload();
  each.dom.win.dispatchEvent(new each.dom.win.KeyboardEvent('keydown'));
  each.dom.pagehide();
  await reload();
  assert.is(control<HTMLTextAreaElement>('textarea').value, '');
});

test('a radio button chosen comes back chosen, by its name and value; the one the markup chose is unchosen', async () => {
  const sizes = () => {
    page().body.innerHTML = '<input type="radio" name="size" value="s" checked><input type="radio" name="size" value="m">';
  };
  sizes();
  control('input[value="m"]').click();
  assert.equal(changedFields(), [{ key: 'input[radio] name=size=m', before: false, value: true }]);
  saveResumePoint();
  await reload(sizes);
  assert.equal([control('input[value="s"]').checked, control('input[value="m"]').checked], [false, true]);
});

test('whatever else was stored as fields is dropped', () => {
  assert.equal(readSavedFields('nonsense'), []);
  assert.equal(
    readSavedFields([{ key: 'a', before: null, value: 'x' }, { key: 1, value: 'x' }, { key: 'b', before: '', value: {} }, null]),
    [{ key: 'a', before: null, value: 'x' }],
  );
});

test.run();
