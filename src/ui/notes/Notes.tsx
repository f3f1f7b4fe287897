import { addNote, deleteNote, editNote, notes } from '../../notes/store';
import { useStore } from '../useStore';

const PROBLEMS = {
  full: 'Not saved: storage is full. Your text stays on screen; free some space to save it.',
  unavailable: 'This browser keeps no data for this site (private mode or storage disabled): notes last until you close the tab.',
};

// After a render: the new note after "Add note", a neighbour after "Delete" (its button is gone).
const focusSoon = (id: string) => setTimeout(() => document.getElementById(id)?.focus());

/** The Notes screen: notes kept on this device, each a labelled text area saved as you type. */
export function Notes() {
  const { notes: list, problem, corrupt } = useStore(notes);
  return (
    <>
      <div className="notice" role="status">
        {corrupt && <p>Some saved notes could not be read. A copy was kept on this device; here is what could be recovered.</p>}
        {problem && <p>{PROBLEMS[problem]}</p>}
      </div>
      <ul className="notes">
        {list.map((n, i) => (
          <li key={n.id}>
            <label htmlFor={'note-' + n.id}>Note {i + 1}</label>
            <textarea id={'note-' + n.id} value={n.text} onChange={(e) => editNote(n.id, e.currentTarget.value)} />
            <button
              type="button"
              aria-label={`Delete note ${i + 1}`}
              onClick={() => {
                const next = list[i + 1] ?? list[i - 1];
                deleteNote(n.id);
                focusSoon(next ? 'note-' + next.id : 'add-note');
              }}
            >
              Delete
            </button>
          </li>
        ))}
      </ul>
      <button id="add-note" type="button" onClick={() => focusSoon('note-' + addNote())}>
        Add note
      </button>
    </>
  );
}
