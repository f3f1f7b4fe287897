// The smallest React app a user of Vite + vite-plugin-pwa would start from: one screen. It registers
// Workbox's worker at `load`, as offline-shell registers its own.
import { StrictMode, useState } from 'react';
import { createRoot } from 'react-dom/client';
import './style.css';

function App() {
  const [text, setText] = useState('');
  return (
    <main>
      <h1>Notes</h1>
      <label>
        Note <textarea value={text} onChange={(event) => setText(event.target.value)} />
      </label>
    </main>
  );
}

createRoot(document.getElementById('root')).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
window.addEventListener('load', () => {
  if ('serviceWorker' in navigator) navigator.serviceWorker.register('/sw.js', { scope: '/' });
});
