// /, "Notes": the app's own work, kept on this device (src/notes/ has the data).
import { MAX_NOTES } from '../../notes/model';
import { addNote, deleteNote, editNote, notes, startOver } from '../../notes/store';
import { reloadAfterFlush } from '../../reload/reload-after-flush';
import { formatNumber } from '../../core/format';
import { NO_ROOM_TO_SAVE } from '../no-room';
import { useStore } from '../useStore';
import { Backup } from './notes/Backup';

export const title = 'Notes';
export const navOrder = 1;

/** What became of the edits an outdated tab had not saved yet. */
const UNSAVED = {
  kept: 'What you typed here since the last save is kept on this device: the newer version adds it to your notes when you reload.',
  'not-kept':
    'What you typed here since the last save could not be kept (this device has no room left): copy it somewhere before you reload.',
};

const PROBLEMS = {
  full: NO_ROOM_TO_SAVE,
  unavailable: 'This browser keeps no data here: notes last until the tab closes.',
};

// "Add note" moves the focus into the new note as it mounts (a ref, not a timer, so a keystroke
// right after the click cannot land elsewhere).
let editorToFocus = '';
const focusIfNew = (editor: HTMLTextAreaElement | null) => {
  if (!editor || editor.id !== editorToFocus) return;
  editorToFocus = '';
  editor.focus();
};

/** Moves the focus to the first note, or to "Add note" when there is none: the focused button is about to disappear. */
const focusFirstNote = () => document.querySelector<HTMLElement>('.notes textarea, #add-note')?.focus();

/** The Notes screen: notes kept on this device, each a labelled text area saved as you type. */
export default function Notes() {
  const { notes: list, problem, corrupt, outdated, unsaved, loaded } = useStore(notes);
  const atLimit = list.length >= MAX_NOTES;
  return (
    <>
      <div className="notice" aria-live="polite">
        {outdated && (
          <p>
            Your notes were saved by a newer version of this app, which this tab cannot read. They stay as they are; this tab saves nothing
            until you reload it. {unsaved && UNSAVED[unsaved]}{' '}
            <button type="button" onClick={reloadAfterFlush}>
              Reload
            </button>
          </p>
        )}
        {corrupt === 'copied' && <p>Some saved notes could not be read; a copy was kept on this device.</p>}
        {corrupt === 'not-copied' && (
          <p>
            Some saved notes could not be read, and storage is too full to keep a copy of them. They stay as they are: nothing here is saved
            until there is room for that copy, or you start over.{' '}
            <button
              type="button"
              onClick={() => {
                focusFirstNote();
                startOver();
              }}
            >
              Start over (discard the unreadable notes)
            </button>
          </p>
        )}
        {/* "Not copied" already says that nothing is saved. */}
        {problem && corrupt !== 'not-copied' && <p>{PROBLEMS[problem]}</p>}
      </div>
      {/* The notes live on the device: the prerendered HTML knows none of them. The placeholder
          is as tall as the one empty note a first visit gets (app.css), so hydrating moves
          nothing below it; when it was one line, Lighthouse measured a layout shift of 0.06. */}
      {!loaded && <p className="notes-loading">Loading your notes…</p>}
      <ul className="notes">
        {list.map((note, index) => (
          <li key={note.id}>
            <label htmlFor={'note-' + note.id}>Note {index + 1}</label>
            {/* An outdated tab keeps showing what it has, read-only: nothing it changes could be saved. */}
            <textarea
              id={'note-' + note.id}
              ref={focusIfNew}
              value={note.text}
              readOnly={outdated}
              onChange={(event) => editNote(note.id, event.currentTarget.value)}
            />
            {!outdated && (
              <button
                type="button"
                aria-label={`Delete note ${index + 1}`}
                onClick={() => {
                  // The focus goes to a neighbour first: the button is about to disappear.
                  const neighbour = list[index + 1] ?? list[index - 1];
                  document.getElementById(neighbour ? 'note-' + neighbour.id : 'add-note')?.focus();
                  deleteNote(note.id);
                }}
              >
                Delete
              </button>
            )}
          </li>
        ))}
      </ul>
      {!outdated && (
        <>
          {/* At the limit the button stays focusable and says why it does nothing (aria-disabled, described by the limit). */}
          <button
            id="add-note"
            type="button"
            aria-disabled={atLimit || undefined}
            aria-describedby={atLimit ? 'notes-limit' : undefined}
            onClick={() => {
              if (atLimit) return;
              editorToFocus = 'note-' + addNote();
            }}
          >
            Add note
          </button>
          {atLimit && <p id="notes-limit">This app keeps at most {formatNumber(MAX_NOTES)} notes: delete one to add another.</p>}
          <Backup />
        </>
      )}
    </>
  );
}
