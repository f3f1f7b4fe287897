// Device storage helpers on happy-dom's Storage. happy-dom has no quota, so the "full" case uses
// a Storage whose setItem throws the DOMException browsers throw; real Chromium's quota is
// exercised in test/e2e/demo/notes.test.ts.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { area, load, save, writeReplacing } from '../../src/stored-data/storage';
import { installDom, tinyStorage, type FakeDom } from './dom';

const test = suite('device storage');
let dom: FakeDom;
test.before.each(() => {
  dom = installDom();
});
test.after.each(() => dom.uninstall());

test('reads back what it saved; a missing key is null, not an error', () => {
  assert.equal(load('k'), { raw: null, value: undefined });
  assert.is(save('k', { a: [1, 'two'] }), undefined);
  assert.equal(load('k'), { raw: '{"a":[1,"two"]}', value: { a: [1, 'two'] } });
  assert.is(save('s', 'plain text'), undefined);
  assert.is(localStorage.getItem('s'), 'plain text', 'strings are stored as they are');
});

test('corrupt JSON is reported, with the raw text handed back (nothing thrown)', () => {
  localStorage.setItem('k', '{"notes":[{"text":"half a no');
  assert.equal(load('k'), { raw: '{"notes":[{"text":"half a no', problem: 'corrupt' });
});

test('a full quota is reported as "full" and leaves the old value in place', () => {
  const s = tinyStorage(20);
  assert.is(save('k', 'small', s), undefined);
  assert.is(save('k', 'x'.repeat(100), s), 'full');
  assert.is(localStorage.getItem('k'), 'small');
});

test('storage the browser forbids (reading localStorage throws) is "unavailable", for reads and writes', () => {
  Object.defineProperty(window, 'localStorage', {
    configurable: true,
    get: () => {
      throw new DOMException('Access is denied for this document.', 'SecurityError');
    },
  });
  assert.is(area(), null);
  assert.equal(load('k'), { raw: null, problem: 'unavailable' });
  assert.is(save('k', 1), 'unavailable');
  assert.ok(area('sessionStorage'), 'sessionStorage is asked for separately');
});

test('a value that replaces other keys: stored, then they go; when both cannot fit, they go first and come back whole if it still does not fit', () => {
  localStorage.setItem('old', 'x'.repeat(300));
  assert.is(writeReplacing(tinyStorage(50), 'new', 'y'.repeat(400), ['old']), 'full');
  assert.equal([localStorage.getItem('new'), localStorage.getItem('old')], [null, 'x'.repeat(300)], 'nothing lost');
  // Room for one of them, not both.
  assert.is(writeReplacing(tinyStorage(100), 'new', 'y'.repeat(350), ['old']), undefined);
  assert.equal([localStorage.getItem('new'), localStorage.getItem('old')], ['y'.repeat(350), null]);
});

test.run();
