import type { DuckDBConnection } from "@duckdb/node-api";
import type { DuckSession } from "./duck-session.js";

const EMPTY: Uint8Array = new Uint8Array(0);

/**
 * A text column of a Parquet file read as a few large blocks instead of cell by cell: the cells of each
 * 2,048 rows concatenated in file order by DuckDB (string_agg), and each cell cut from its block by its
 * length in bytes, which the row query reads as an integer. Measured at scale 100: a cell longer than 12 bytes costs
 * @duckdb/node-api a native call and an ArrayBuffer to read (about 1.2 µs, and garbage to collect); the
 * 970,000 trajectory ids and log hashes of demo × 100 took 0.6–0.7 s of the main thread that way, the
 * blocks 0.05 s (and about 0.2 s of DuckDB's own threads).
 *
 * A block that is all ASCII (its text as long as its bytes) is decoded once and sliced; any other block
 * is decoded cell by cell from its bytes.
 */
export class TextBlocks {
  private readonly decoder = new TextDecoder();
  private bytes: Uint8Array = EMPTY;
  private text = "";
  private ascii = true;
  /** Where the next cell starts in the current block (bytes, and characters when the block is ASCII). */
  private at = 0;
  /** Blocks fetched (queue[head..] not yet current), their bytes, and whether the query has more. */
  private readonly queue: Uint8Array[] = [];
  private head = 0;
  private queued = 0;
  private ended = false;

  private constructor(
    private readonly conn: DuckDBConnection,
    private readonly result: Awaited<ReturnType<DuckDBConnection["stream"]>>,
  ) {}

  /** The blocks of `column` (a quoted name) in the file `from` (a read_parquet with file_row_number). */
  static async open(duck: DuckSession, from: string, column: string): Promise<TextBlocks> {
    const conn = await duck.connect();
    const result = await conn.stream(
      `SELECT file_row_number // 2048 AS block, encode(string_agg(coalesce(${column}, ''), '' ORDER BY file_row_number))
       FROM ${from} GROUP BY block ORDER BY block`,
    );
    return new TextBlocks(conn, result);
  }

  /** Fetches blocks until `bytes` more bytes than the current block holds are at hand (or the query ends). */
  async ensure(bytes: number): Promise<void> {
    while (this.bytes.length - this.at + this.queued < bytes && !this.ended) {
      const chunk = await this.result.fetchChunk();
      if (!chunk || chunk.rowCount === 0) {
        this.ended = true;
        break;
      }
      const vector = chunk.getColumnVector(1);
      const rows = chunk.rowCount; // a native call: read once, not once per row
      for (let i = 0; i < rows; i++) {
        const block = (vector.getItem(i) as { bytes: Uint8Array }).bytes;
        this.queue.push(block);
        this.queued += block.length;
      }
    }
  }

  /** The next cell, `length` bytes long (they must have been ensured). */
  take(length: number): string {
    if (length === 0) return "";
    while (this.at === this.bytes.length) this.next();
    const from = this.at;
    this.at += length;
    if (this.at > this.bytes.length) throw new Error("a text cell runs past its block (lengths and blocks disagree)");
    return this.ascii ? this.text.slice(from, this.at) : this.decoder.decode(this.bytes.subarray(from, this.at));
  }

  private next(): void {
    const block = this.queue[this.head];
    if (!block) throw new Error("a text cell past the last block (lengths and blocks disagree)");
    this.queue[this.head++] = EMPTY;
    this.queued -= block.length;
    this.bytes = block;
    this.text = this.decoder.decode(block);
    // Every non-ASCII character takes more UTF-8 bytes than UTF-16 units.
    this.ascii = this.text.length === block.length;
    this.at = 0;
  }

  /**
   * Reads the query to its end, then closes its connection: a streaming result left unfinished keeps the
   * database's memory until garbage collection finds it (0.4 GB held through the analyses at
   * scale 100).
   */
  async close(): Promise<void> {
    await this.ensure(Number.POSITIVE_INFINITY);
    this.conn.closeSync?.();
  }
}
