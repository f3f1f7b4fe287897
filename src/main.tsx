// Entry: starts the framework-free offline core, then mounts the React UI.
import { createRoot } from 'react-dom/client';
import { App } from './ui/App';
import './app.css';

const root = document.getElementById('root');
if (!root) throw new Error('offline-shell: #root is missing from index.html');
createRoot(root).render(<App />);
