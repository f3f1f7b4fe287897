// Entry: starts the framework-free offline core, then mounts the React UI.
import { createRoot } from 'react-dom/client';
import { startConnectivity } from './offline/connectivity';
import { startRegistration } from './offline/registration';
import { App } from './ui/App';
import { startRouter } from './ui/router';
import './app.css';

startConnectivity();
// Dev builds never register the worker, so nothing stale is served while developing.
if (!__DEV__) startRegistration();
startRouter();

const root = document.getElementById('root');
if (!root) throw new Error('offline-shell: #root is missing from index.html');
createRoot(root).render(<App />);
