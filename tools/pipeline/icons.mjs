// Draws the app icons as PNGs with no image library: `node tools/pipeline/icons.mjs` writes static/icons/.
// Run it again only when the design changes; the outputs are committed so builds stay byte-stable.
// Importing it writes nothing: only the command line does.
import { writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import zlib from 'node:zlib';

const BLUE = [31, 95, 191];
const WHITE = [255, 255, 255];

/**
 * Encodes RGBA pixels as a PNG (https://www.w3.org/TR/png/): IHDR, one IDAT, IEND.
 * @param {number} size width and height in pixels
 * @param {Buffer} rgba size × size pixels, 4 bytes each
 */
export function encodePng(size, rgba) {
  /**
   * @param {string} type
   * @param {Buffer} data
   */
  const chunk = (type, data) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32(body));
    return Buffer.concat([len, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr.set([8, 6, 0, 0, 0], 8); // 8-bit RGBA, no interlace
  const raw = Buffer.alloc(size * (size * 4 + 1));
  for (let y = 0; y < size; y++) rgba.copy(raw, y * (size * 4 + 1) + 1, y * size * 4, (y + 1) * size * 4);
  const sig = Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]);
  return Buffer.concat([sig, chunk('IHDR', ihdr), chunk('IDAT', zlib.deflateSync(raw, { level: 9 })), chunk('IEND', Buffer.alloc(0))]);
}

/**
 * The mark: a white ring with a dot (a "cached" target) on blue. `maskable` fills the whole square
 * and keeps the mark inside the 80% safe zone; `any` uses a rounded square on transparency.
 * @param {number} size
 * @param {boolean} maskable
 */
export function draw(size, maskable) {
  const px = Buffer.alloc(size * size * 4);
  const c = size / 2;
  const scale = maskable ? 0.8 : 1;
  const r = size * 0.5;
  const corner = size * 0.22;
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const i = (y * size + x) * 4;
      const dx = Math.max(Math.abs(x + 0.5 - c) - (r - corner), 0);
      const dy = Math.max(Math.abs(y + 0.5 - c) - (r - corner), 0);
      const inside = maskable || Math.hypot(dx, dy) <= corner;
      if (!inside) continue;
      const d = Math.hypot(x + 0.5 - c, y + 0.5 - c) / (size * scale);
      const mark = (d > 0.24 && d < 0.32) || d < 0.1;
      px.set([...(mark ? WHITE : BLUE), 255], i);
    }
  }
  return encodePng(size, px);
}

/**
 * Writes the three icons into `dir` (created if missing).
 * @param {string} dir
 */
export function writeIcons(dir) {
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'icon-192.png'), draw(192, false));
  writeFileSync(path.join(dir, 'icon-512.png'), draw(512, false));
  writeFileSync(path.join(dir, 'icon-maskable-512.png'), draw(512, true));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  writeIcons('static/icons');
  console.log('wrote static/icons/icon-192.png, icon-512.png, icon-maskable-512.png');
}
