// The one store shape of the app's framework-free core: `subscribe` returns its own unsubscribe,
// `getSnapshot` returns the same object until the state changes (what useSyncExternalStore needs),
// and `getServerSnapshot` is what the build's prerendering shows: a neutral state that holds
// nothing of any device, so the HTML never claims "no notes" or "offline" before the page knows.

/** A read-only observable value. */
export interface Store<T> {
  subscribe(listener: () => void): () => void;
  getSnapshot(): T;
  /** The state the prerendered HTML shows, and the one hydration starts from. */
  getServerSnapshot(): T;
}

/** A store the owning module can write to. */
export interface WritableStore<T> extends Store<T> {
  set(next: T): void;
  update(patch: Partial<T>): void;
}

/**
 * Creates a store holding `initial`, which is also its server snapshot: the owning module's
 * start function replaces it with what the device says. `set` notifies only when the value
 * changes (Object.is).
 */
export function createStore<T>(initial: T): WritableStore<T> {
  let state = initial;
  const listeners = new Set<() => void>();
  const set = (next: T) => {
    if (Object.is(next, state)) return;
    state = next;
    for (const listener of [...listeners]) listener();
  };
  return {
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    getSnapshot: () => state,
    getServerSnapshot: () => initial,
    set,
    update: (patch) => set({ ...state, ...patch }),
  };
}

/**
 * A read-only view of a store: `select` of its value, computed again only when the value
 * changes, so a view's snapshot stays the same object between changes (as useSyncExternalStore needs).
 */
export function selectStore<T, U>(store: Store<T>, select: (value: T) => U): Store<U> {
  const memo = (read: () => T) => {
    let seen: { value: T; selected: U } | undefined;
    return () => {
      const value = read();
      if (!seen || !Object.is(seen.value, value)) seen = { value, selected: select(value) };
      return seen.selected;
    };
  };
  return { subscribe: store.subscribe, getSnapshot: memo(store.getSnapshot), getServerSnapshot: memo(store.getServerSnapshot) };
}
