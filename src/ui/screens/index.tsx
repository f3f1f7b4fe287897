// /, "Notes": the app's own work, kept on this device (src/notes/ has the data).
import { addNote, deleteNote, editNote, notes } from '../../notes/store';
import { useStore } from '../useStore';
import { Backup } from './notes/Backup';

export const title = 'Notes';
export const navOrder = 1;

const PROBLEMS = {
  full: 'Not saved: storage is full. Your text stays here until there is room.',
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

/** The Notes screen: notes kept on this device, each a labelled text area saved as you type. */
export default function Notes() {
  const { notes: list, problem, corrupt, loaded } = useStore(notes);
  return (
    <>
      <div className="notice" aria-live="polite">
        {corrupt && <p>Some saved notes could not be read; a copy was kept on this device.</p>}
        {problem && <p>{PROBLEMS[problem]}</p>}
      </div>
      {/* The notes live on the device: the prerendered HTML knows none of them. The placeholder
          is as tall as the one empty note a first visit gets (app.css), so hydrating moves
          nothing below it; when it was one line, Lighthouse measured a layout shift of 0.06. */}
      {!loaded && <p className="notes-loading">Loading your notes…</p>}
      <ul className="notes">
        {list.map((note, index) => (
          <li key={note.id}>
            <label htmlFor={'note-' + note.id}>Note {index + 1}</label>
            <textarea
              id={'note-' + note.id}
              ref={focusIfNew}
              value={note.text}
              onChange={(event) => editNote(note.id, event.currentTarget.value)}
            />
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
          </li>
        ))}
      </ul>
      <button
        id="add-note"
        type="button"
        onClick={() => {
          editorToFocus = 'note-' + addNote();
        }}
      >
        Add note
      </button>
      <Backup />
    </>
  );
}
