import { useSyncExternalStore } from 'react';
import type { Store } from '../store';

/** Reads a framework-free store in a component and re-renders when it changes. */
export function useStore<T>(store: Store<T>): T {
  return useSyncExternalStore(store.subscribe, store.getSnapshot, store.getSnapshot);
}
