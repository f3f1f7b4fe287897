// /status/, "Offline readiness". Its component and helpers live in src/ui/status/.
export { Status as default } from '../status/Status';

export const title = 'Offline readiness';
export const navOrder = 2;
