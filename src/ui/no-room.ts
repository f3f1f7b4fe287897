// What a person reads when this device has no room left: what it means for them, and what frees
// room, in the same words wherever it is said (the banner, /status, a screen's save, a restore).
import { formatTime } from '../core/format';

/** What frees room, as a person does it. */
const FREE_ROOM = "free some space (delete files or apps you no longer need, or other sites' data in the browser's settings)";

/** The banner's and /status's sentence for an install refused for lack of room, with when it is tried again. */
export const noRoomForApp = (retryAt: number | null): string =>
  `This device has no room to keep the app for offline use; it works online meanwhile. To use it offline, ${FREE_ROOM}${
    retryAt ? `: it tries again at ${formatTime(retryAt)}` : ''
  }.`;

/** A screen's sentence for a save of its stored data refused for lack of room (a device document's `problem: 'full'`). */
export const NO_ROOM_TO_SAVE = `Not saved: this device has no room left. Your text stays here and is saved with your next change once there is room: ${FREE_ROOM}.`;

/** The restore's sentence for a backup refused for lack of room. */
export const NO_ROOM_FOR_RESTORE = `Not restored: this device has no room for what this backup holds. Nothing was changed; ${FREE_ROOM} and try again.`;
