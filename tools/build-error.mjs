// The one kind of error the user must fix: build.mjs (and the dev loop) print only its message.

/** Thrown for problems the user must fix; build.mjs prints only its message. */
export class BuildError extends Error {
  /** @override */
  name = 'BuildError';
}
