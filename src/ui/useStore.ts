import { useSyncExternalStore } from 'react';
import type { Store } from '../core/store';

/**
 * Reads a framework-free store in a component and re-renders when it changes. Hydration starts
 * from the store's server snapshot, the state the prerendered HTML was made from, so React finds
 * no mismatch, then renders what the device says.
 */
export function useStore<T>(store: Store<T>): T {
  return useSyncExternalStore(store.subscribe, store.getSnapshot, store.getServerSnapshot);
}
