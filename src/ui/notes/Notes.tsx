import { addNote, deleteNote, editNote, notes } from '../../notes/store';
import { useStore } from '../useStore';

const PROBLEMS = {
  full: 'Not saved: storage is full. Your text stays here until there is room.',
  unavailable: 'This browser keeps no data here: notes last until the tab closes.',
};

// "Add note" moves the focus into the new note as it mounts (a ref, not a timer, so a keystroke
// right after the click cannot land elsewhere).
let focusNew = '';
const grab = (el: HTMLTextAreaElement | null) => {
  if (el?.id == focusNew) {
    focusNew = '';
    el.focus();
  }
};

/** The Notes screen: notes kept on this device, each a labelled text area saved as you type. */
export function Notes() {
  const { notes: list, problem, corrupt } = useStore(notes);
  return (
    <>
      <div className="notice" aria-live="polite">
        {corrupt && <p>Some saved notes could not be read; a copy was kept on this device.</p>}
        {problem && <p>{PROBLEMS[problem]}</p>}
      </div>
      <ul className="notes">
        {list.map((n, i) => (
          <li key={n.id}>
            <label htmlFor={'note-' + n.id}>Note {i + 1}</label>
            <textarea id={'note-' + n.id} ref={grab} value={n.text} onChange={(e) => editNote(n.id, e.currentTarget.value)} />
            <button
              type="button"
              aria-label={`Delete note ${i + 1}`}
              onClick={() => {
                // The focus goes to a neighbour first: the button is about to disappear.
                const next = list[i + 1] ?? list[i - 1];
                document.getElementById(next ? 'note-' + next.id : 'add-note')?.focus();
                deleteNote(n.id);
              }}
            >
              Delete
            </button>
          </li>
        ))}
      </ul>
      <button id="add-note" type="button" onClick={() => (focusNew = 'note-' + addNote())}>
        Add note
      </button>
    </>
  );
}
