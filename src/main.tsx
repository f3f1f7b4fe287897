// Entry: starts the framework-free offline core, then mounts the React UI.
import { createRoot } from 'react-dom/client';
import { startNotes } from './notes/store';
import { startConnectivity } from './offline/connectivity';
import { startReconnect } from './offline/reconnect';
import { startRegistration } from './offline/registration';
import { App } from './ui/App';
import { startRouter } from './ui/router';
import './app.css';

startConnectivity();
startReconnect();
startNotes();
// Dev builds never register the worker, so nothing stale is served while developing.
if (!__DEV__) startRegistration();
startRouter();

// The build refuses a template without #root (tools/site.mjs renderHtml), so it is there.
createRoot(document.getElementById('root')!).render(<App />);
