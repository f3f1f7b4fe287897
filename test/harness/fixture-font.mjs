// A font for the tests, made here rather than shipped as a binary: one glyph, a wide block, for
// "X" (twice the em wide, so text set in it measures unlike any fallback), as a TrueType font in a
// WOFF2 file (W3C WOFF2, every table stored untransformed: glyf and loca with the null transform,
// version 3; one Brotli stream). Browsers sanitize fonts (OTS in Chromium and Firefox) and refuse
// a broken one, so a font that renders is one the browser read from the bytes it was served.
import { brotliCompressSync } from 'node:zlib';

/** The family name the font's name table carries. */
export const FIXTURE_FONT_FAMILY = 'Offline Shell Fixture';

/** Units per em, and the advance of the one glyph ("X"): two ems. */
const UNITS_PER_EM = 1000;
const WIDE = 2000;

/**
 * A buffer written field by field, big-endian, as TrueType's tables are.
 * @param {[kind: 'u8' | 'u16' | 'i16' | 'u32' | 'i64', value: number][]} fields
 */
function fields(fields) {
  const sizes = { u8: 1, u16: 2, i16: 2, u32: 4, i64: 8 };
  const out = Buffer.alloc(fields.reduce((total, [kind]) => total + sizes[kind], 0));
  let at = 0;
  for (const [kind, value] of fields) {
    if (kind === 'u8') out.writeUInt8(value, at);
    else if (kind === 'u16') out.writeUInt16BE(value, at);
    else if (kind === 'i16') out.writeInt16BE(value, at);
    else if (kind === 'u32') out.writeUInt32BE(value >>> 0, at);
    else out.writeBigInt64BE(BigInt(value), at);
    at += sizes[kind];
  }
  return out;
}

/** @param {number} count */
const zeros = (count) => Array.from({ length: count }, () => /** @type {['u16', number]} */ (['u16', 0]));

/** The font's tables, by tag, in the order WOFF2 stores them (glyf right before loca). */
function tables() {
  const head = fields([
    ['u32', 0x00010000], // version
    ['u32', 0x00010000], // fontRevision
    ['u32', 0], // checkSumAdjustment: the decoder computes it
    ['u32', 0x5f0f3cf5], // magicNumber
    ['u16', 0x000b], // flags: baseline at y=0, lsb at x=0, integer scaling
    ['u16', UNITS_PER_EM],
    ['i64', 0], // created
    ['i64', 0], // modified
    ['i16', 100], // xMin
    ['i16', 0], // yMin
    ['i16', WIDE - 100], // xMax
    ['i16', 700], // yMax
    ['u16', 0], // macStyle
    ['u16', 8], // lowestRecPPEM
    ['i16', 2], // fontDirectionHint
    ['i16', 0], // indexToLocFormat: short offsets
    ['i16', 0], // glyphDataFormat
  ]);
  const hhea = fields([
    ['u32', 0x00010000],
    ['i16', 800], // ascender
    ['i16', -200], // descender
    ['i16', 0], // lineGap
    ['u16', WIDE], // advanceWidthMax
    ['i16', 0], // minLeftSideBearing
    ['i16', 100], // minRightSideBearing
    ['i16', WIDE - 100], // xMaxExtent
    ['i16', 1], // caretSlopeRise
    ['i16', 0], // caretSlopeRun
    ['i16', 0], // caretOffset
    ...zeros(4),
    ['i16', 0], // metricDataFormat
    ['u16', 2], // numberOfHMetrics
  ]);
  const maxp = fields([
    ['u32', 0x00010000],
    ['u16', 2], // numGlyphs
    ['u16', 4], // maxPoints
    ['u16', 1], // maxContours
    ['u16', 0],
    ['u16', 0],
    ['u16', 2], // maxZones
    ...zeros(8),
  ]);
  const os2 = fields([
    ['u16', 4], // version
    ['i16', WIDE / 2], // xAvgCharWidth
    ['u16', 400], // usWeightClass
    ['u16', 5], // usWidthClass
    ['u16', 0], // fsType: installable
    ...zeros(10), // subscript, superscript and strikeout sizes and offsets
    ['i16', 0], // sFamilyClass
    ...Array.from({ length: 10 }, () => /** @type {['u8', number]} */ (['u8', 0])), // panose
    ['u32', 0], // ulUnicodeRange1-4
    ['u32', 0],
    ['u32', 0],
    ['u32', 0],
    ['u32', 0x4e4f4e45], // achVendID "NONE"
    ['u16', 0x0040], // fsSelection: regular
    ['u16', 0x58], // usFirstCharIndex
    ['u16', 0x58], // usLastCharIndex
    ['i16', 800], // sTypoAscender
    ['i16', -200], // sTypoDescender
    ['i16', 0], // sTypoLineGap
    ['u16', 800], // usWinAscent
    ['u16', 200], // usWinDescent
    ['u32', 1], // ulCodePageRange1: Latin 1
    ['u32', 0],
    ['i16', 700], // sxHeight
    ['i16', 700], // sCapHeight
    ['u16', 0], // usDefaultChar
    ['u16', 0x20], // usBreakChar
    ['u16', 1], // usMaxContext
  ]);
  const hmtx = fields([
    ['u16', UNITS_PER_EM / 2], // .notdef
    ['i16', 0],
    ['u16', WIDE], // X
    ['i16', 100],
  ]);
  // One format 4 subtable (Windows, Unicode BMP): "X" (U+0058) is glyph 1; the closing 0xFFFF segment.
  const cmap = fields([
    ['u16', 0],
    ['u16', 1],
    ['u16', 3],
    ['u16', 1],
    ['u32', 12],
    ['u16', 4], // format
    ['u16', 32], // length
    ['u16', 0], // language
    ['u16', 4], // segCountX2
    ['u16', 4], // searchRange
    ['u16', 1], // entrySelector
    ['u16', 0], // rangeShift
    ['u16', 0x58], // endCode
    ['u16', 0xffff],
    ['u16', 0], // reservedPad
    ['u16', 0x58], // startCode
    ['u16', 0xffff],
    ['i16', 1 - 0x58], // idDelta
    ['i16', 1],
    ['u16', 0], // idRangeOffset
    ['u16', 0],
  ]);
  const names = [
    [1, FIXTURE_FONT_FAMILY],
    [2, 'Regular'],
    [4, FIXTURE_FONT_FAMILY],
    [6, 'OfflineShellFixture'],
  ];
  const strings = names.map(([, text]) => Buffer.from(String(text), 'utf16le').swap16());
  let offset = 0;
  const records = names.flatMap(([id], index) => {
    const record = /** @type {['u16', number][]} */ ([
      ['u16', 3],
      ['u16', 1],
      ['u16', 0x409],
      ['u16', Number(id)],
      ['u16', strings[index].length],
      ['u16', offset],
    ]);
    offset += strings[index].length;
    return record;
  });
  const name = Buffer.concat([fields([['u16', 0], ['u16', names.length], ['u16', 6 + 12 * names.length], ...records]), ...strings]);
  const post = fields([
    ['u32', 0x00030000],
    ['u32', 0],
    ['i16', -100],
    ['i16', 50],
    ['u32', 0],
    ['u32', 0],
    ['u32', 0],
    ['u32', 0],
    ['u32', 0],
  ]);
  // Glyph 0 (.notdef) is empty; glyph 1 is one closed contour, a block 1800 by 700 units.
  const block = fields([
    ['i16', 1], // numberOfContours
    ['i16', 100],
    ['i16', 0],
    ['i16', WIDE - 100],
    ['i16', 700],
    ['u16', 3], // endPtsOfContours
    ['u16', 0], // instructionLength
    ['u8', 1], // flags: on curve, coordinates as 16-bit deltas
    ['u8', 1],
    ['u8', 1],
    ['u8', 1],
    ['i16', 100], // x deltas
    ['i16', WIDE - 200],
    ['i16', 0],
    ['i16', -(WIDE - 200)],
    ['i16', 0], // y deltas
    ['i16', 0],
    ['i16', 700],
    ['i16', 0],
  ]);
  const glyf = Buffer.concat([block, Buffer.alloc((4 - (block.length % 4)) % 4)]);
  const loca = fields([
    ['u16', 0],
    ['u16', 0],
    ['u16', glyf.length / 2],
  ]);
  return /** @type {[string, Buffer][]} */ ([
    ['cmap', cmap],
    ['head', head],
    ['hhea', hhea],
    ['hmtx', hmtx],
    ['maxp', maxp],
    ['name', name],
    ['OS/2', os2],
    ['post', post],
    ['glyf', glyf],
    ['loca', loca],
  ]);
}

/** WOFF2's known table tags, by the index its table directory uses for them (the first ones). */
const KNOWN_TAGS = ['cmap', 'head', 'hhea', 'hmtx', 'maxp', 'name', 'OS/2', 'post', 'cvt ', 'fpgm', 'glyf', 'loca'];

/**
 * A number as WOFF2's UIntBase128: 7 bits a byte, most significant first, the high bit on all but the last.
 * @param {number} value
 */
function base128(value) {
  const bytes = [value & 0x7f];
  for (let rest = value >>> 7; rest > 0; rest >>>= 7) bytes.unshift((rest & 0x7f) | 0x80);
  return Buffer.from(bytes);
}

/** @param {number} n */
const padded = (n) => n + ((4 - (n % 4)) % 4);

/** The fixture font as a WOFF2 file. */
export function fixtureFontWoff2() {
  const all = tables();
  // glyf and loca: transform version 3, the null transform; every other table: version 0, none.
  const directory = Buffer.concat(
    all.map(([tag, data]) => {
      const version = tag === 'glyf' || tag === 'loca' ? 3 : 0;
      return Buffer.concat([Buffer.from([(version << 6) | KNOWN_TAGS.indexOf(tag)]), base128(data.length)]);
    }),
  );
  const compressed = brotliCompressSync(Buffer.concat(all.map(([, data]) => data)));
  const sfntSize = 12 + 16 * all.length + all.reduce((total, [, data]) => total + padded(data.length), 0);
  const length = padded(48 + directory.length + compressed.length);
  const header = fields([
    ['u32', 0x774f4632], // "wOF2"
    ['u32', 0x00010000], // TrueType outlines
    ['u32', length],
    ['u16', all.length],
    ['u16', 0],
    ['u32', sfntSize],
    ['u32', compressed.length],
    ['u16', 1], // majorVersion
    ['u16', 0],
    ['u32', 0], // no metadata
    ['u32', 0],
    ['u32', 0],
    ['u32', 0], // no private data
    ['u32', 0],
  ]);
  const file = Buffer.concat([header, directory, compressed]);
  return Buffer.concat([file, Buffer.alloc(length - file.length)]);
}
