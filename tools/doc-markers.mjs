// The parts of docs/ that a command writes: the text between `<!-- NAME:start … -->` and
// `<!-- NAME:end -->`. Only that text is replaced; what a person wrote around it stays.

/**
 * The text between the markers named `name`, without the marker lines.
 * @param {string} text
 * @param {string} name
 * @param {string} file named in the error when a marker is missing
 */
export function betweenMarkers(text, name, file) {
  const { start, end } = markerBounds(text, name, file);
  return text.slice(start, end);
}

/**
 * `text` with the part between the markers named `name` replaced by `body` (a trailing newline is added).
 * @param {string} text
 * @param {string} name
 * @param {string} body
 * @param {string} file named in the error when a marker is missing
 */
export function replaceBetweenMarkers(text, name, body, file) {
  const { start, end } = markerBounds(text, name, file);
  return text.slice(0, start) + body.replace(/\n?$/, '\n') + text.slice(end);
}

/**
 * Where the written part starts (after the start marker's line) and ends (at the end marker).
 * @param {string} text
 * @param {string} name
 * @param {string} file
 */
function markerBounds(text, name, file) {
  const startMarker = text.indexOf(`<!-- ${name}:start`);
  const endMarker = text.indexOf(`<!-- ${name}:end -->`);
  if (startMarker < 0 || endMarker < startMarker)
    throw new Error(`${file} has no "<!-- ${name}:start -->" … "<!-- ${name}:end -->" markers to write between`);
  const start = text.indexOf('\n', startMarker) + 1;
  return { start, end: endMarker };
}
