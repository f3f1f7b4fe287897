// A file the person keeps, made in the page: a Blob download works offline and sends nothing anywhere.

/** Saves `text` as the file `name` (a download the page makes); returns its size in bytes. */
export function downloadText(name: string, text: string, type = 'application/json'): number {
  const file = new Blob([text], { type });
  const url = URL.createObjectURL(file);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.click();
  // The download has its own reference to the Blob once it started; this frees the page's.
  setTimeout(() => URL.revokeObjectURL(url));
  return file.size;
}
