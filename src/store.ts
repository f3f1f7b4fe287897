// The one store shape of the app's framework-free core: `subscribe` returns its own unsubscribe,
// `getSnapshot` returns the same object until the state changes (what useSyncExternalStore needs).

/** A read-only observable value. */
export interface Store<T> {
  subscribe(listener: () => void): () => void;
  getSnapshot(): T;
}

/** A store the owning module can write to. */
export interface WritableStore<T> extends Store<T> {
  set(next: T): void;
  update(patch: Partial<T>): void;
}

/** Creates a store holding `initial`; `set` notifies only when the value changes (Object.is). */
export function createStore<T>(initial: T): WritableStore<T> {
  let state = initial;
  const listeners = new Set<() => void>();
  const set = (next: T) => {
    if (Object.is(next, state)) return;
    state = next;
    for (const l of [...listeners]) l();
  };
  return {
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    getSnapshot: () => state,
    set,
    update: (patch) => set({ ...state, ...patch }),
  };
}
