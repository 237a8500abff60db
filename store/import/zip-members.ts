import { inflateRawSync } from "node:zlib";
import { createRequire } from "node:module";

/**
 * The members of a zip archive (an Inspect `.eval` log), read from the format's definition (PKWARE APPNOTE
 * 6.3.10: end of central directory, its Zip64 form, central directory headers, local headers) so that every
 * compression Inspect writes is read: stored (0), deflate (8, node's zlib) and Zstandard (93, fzstd — newer
 * Inspect versions compress `.eval` archives with zstd, which JSZip refused as "compression \x5D\x00 unknown";
 * Node 20's zlib has no zstd, and fzstd is the maintained pure-JS decoder by fflate's author).
 */
export interface ZipMember {
  name: string;
  method: number;
  /** The member's bytes, decompressed (throws ZipError naming the member when it cannot be). */
  read(): Buffer;
}

export class ZipError extends Error {}

const METHODS: Record<number, string> = { 0: "stored", 8: "deflate", 93: "zstd" };

export function zipMembers(buf: Buffer): ZipMember[] {
  const end = findEnd(buf);
  let count = buf.readUInt16LE(end + 10);
  let offset = buf.readUInt32LE(end + 16);
  if (count === 0xffff || offset === 0xffffffff) [count, offset] = zip64Directory(buf, end);
  const out: ZipMember[] = [];
  let p = offset;
  for (let i = 0; i < count; i++) {
    if (p + 46 > buf.length || buf.readUInt32LE(p) !== 0x02014b50)
      throw new ZipError(`central directory entry ${i + 1} of ${count} is missing or damaged`);
    const method = buf.readUInt16LE(p + 10);
    let size = buf.readUInt32LE(p + 20);
    const nameLength = buf.readUInt16LE(p + 28);
    const extraLength = buf.readUInt16LE(p + 30);
    const commentLength = buf.readUInt16LE(p + 32);
    let local = buf.readUInt32LE(p + 42);
    const name = buf.toString("utf8", p + 46, p + 46 + nameLength);
    if (size === 0xffffffff || local === 0xffffffff)
      [size, local] = zip64Extra(buf, p + 46 + nameLength, extraLength, buf.readUInt32LE(p + 24), size, local);
    out.push({ name, method, read: () => memberBytes(buf, name, method, local, size) });
    p += 46 + nameLength + extraLength + commentLength;
  }
  return out;
}

/** The end-of-central-directory record: the last signature within the final 64 KiB + 22 bytes. */
function findEnd(buf: Buffer): number {
  for (let i = buf.length - 22; i >= Math.max(0, buf.length - 22 - 0xffff); i--)
    if (buf.readUInt32LE(i) === 0x06054b50) return i;
  throw new ZipError("not a zip archive (no end-of-central-directory record)");
}

function zip64Directory(buf: Buffer, end: number): [number, number] {
  const locator = end - 20;
  if (locator < 0 || buf.readUInt32LE(locator) !== 0x07064b50) throw new ZipError("Zip64 locator missing");
  const record = Number(buf.readBigUInt64LE(locator + 8));
  if (buf.readUInt32LE(record) !== 0x06064b50) throw new ZipError("Zip64 end record missing");
  return [Number(buf.readBigUInt64LE(record + 32)), Number(buf.readBigUInt64LE(record + 48))];
}

/** The Zip64 extra field (id 1): the 8-byte sizes and offset, in order, of the fields set to 0xFFFFFFFF. */
function zip64Extra(buf: Buffer, at: number, length: number, usize: number, size: number, local: number) {
  for (let p = at; p + 4 <= at + length; ) {
    const id = buf.readUInt16LE(p);
    const n = buf.readUInt16LE(p + 2);
    if (id === 1) {
      let q = p + 4;
      if (usize === 0xffffffff) q += 8;
      if (size === 0xffffffff) {
        size = Number(buf.readBigUInt64LE(q));
        q += 8;
      }
      if (local === 0xffffffff) local = Number(buf.readBigUInt64LE(q));
      return [size, local];
    }
    p += 4 + n;
  }
  throw new ZipError("Zip64 sizes missing");
}

function memberBytes(buf: Buffer, name: string, method: number, local: number, size: number): Buffer {
  if (local + 30 > buf.length || buf.readUInt32LE(local) !== 0x04034b50)
    throw new ZipError(`member ${name}: local header missing`);
  const start = local + 30 + buf.readUInt16LE(local + 26) + buf.readUInt16LE(local + 28);
  const data = buf.subarray(start, start + size);
  if (data.length !== size) throw new ZipError(`member ${name}: truncated (${data.length} of ${size} bytes)`);
  try {
    if (method === 0) return Buffer.from(data);
    if (method === 8) return inflateRawSync(data);
    if (method === 93) return Buffer.from(zstd().decompress(data));
  } catch (e) {
    throw new ZipError(`member ${name} (${METHODS[method]}): cannot decompress (${(e as Error).message})`);
  }
  throw new ZipError(
    `member ${name} uses zip compression method ${method}, which is not read here (stored, deflate and zstd are)`,
  );
}

/** fzstd, loaded at the first zstd member, not at every command's start (its CommonJS build: pure functions). */
const zstd = (): typeof import("fzstd") => createRequire(import.meta.url)("fzstd");
