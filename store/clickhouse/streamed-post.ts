import { connect } from "node:net";

// One POST to a ClickHouse server's HTTP interface whose answer is handed on piece by piece as the socket reads
// it. Node's HTTP client cost this process more than the decoding at scale 100 (issue 57.5): ClickHouse 18.16
// writes its answer in chunks of about 3.9 KB (Poco's buffer), and node:http makes each one a Buffer, an event and
// a stream push (1.0 s for 129 MB), then Buffer.concat copied them into a fresh buffer (0.8 s, most of it the first
// touch of new pages). Here the socket reads into one buffer reused for every read (net's `onread`), the chunked
// framing (RFC 9112 §7.1) is taken off in place, and each piece of the body goes to the caller, which must read it
// before returning. Measured on the trajectories of the scale-100 store (62 MB), one fetch: 620–750 ms of CPU
// through node:http and Buffer.concat, 90 ms here.

/** Where and what to POST. */
export interface StreamedPost {
  host: string;
  port: number;
  /** The path and query string, from `/`. */
  path: string;
  body: Buffer;
  /** Idle time-out: the request fails when the socket is silent this long. */
  timeoutMs: number;
}

/** The size of the buffer every read of one socket lands in. */
const READ_BUFFER = 1 << 18;

/** A response head's largest size (ClickHouse's is a few hundred bytes). */
const MAX_HEAD = 1 << 16;

/**
 * Posts `request` and calls `piece` with each piece of a 200 answer's body, in order (the bytes are valid during the
 * call only); resolves with the body's length once the answer is complete. Another status fails with the body's
 * text as the message (the server's exception); a connection closed before the answer's end fails as a reset
 * (code ECONNRESET, "socket hang up", as node:http says it), a silent socket with "Timeout error", a network error
 * with its own code.
 */
export function streamedPost(request: StreamedPost, piece: (bytes: Buffer) => void): Promise<number> {
  return new Promise<number>((done, fail) => {
    const answer = new AnswerParser(piece);
    let settled = false;
    const settle = (error?: Error) => {
      if (settled) return;
      settled = true;
      socket.destroy();
      if (error) fail(error);
      else if (answer.status !== 200) fail(new Error(answer.errorText().trim()));
      else done(answer.bodyBytes);
    };
    const socket = connect({
      host: request.host,
      port: request.port,
      onread: {
        buffer: Buffer.allocUnsafe(READ_BUFFER),
        callback: (n: number, buffer: Uint8Array) => {
          if (settled) return false;
          try {
            if (answer.take(buffer as Buffer, n)) settle();
          } catch (e) {
            settle(e as Error);
          }
          return true;
        },
      },
    });
    socket.setNoDelay(true);
    socket.setTimeout(request.timeoutMs, () =>
      settle(new Error(`Timeout error: no answer in ${request.timeoutMs} ms`)),
    );
    socket.on("error", (e) => settle(e));
    socket.on("end", () => settle(answer.endedEarly()));
    socket.on("close", () => settle(answer.endedEarly()));
    const head =
      `POST ${request.path} HTTP/1.1\r\nHost: ${request.host}:${request.port}\r\nConnection: close\r\n` +
      `Content-Length: ${request.body.length}\r\n\r\n`;
    socket.write(head, "latin1");
    socket.write(request.body);
  });
}

/** Body framing: chunked, a Content-Length, or until the server closes. */
type Framing = { kind: "chunked" } | { kind: "length"; left: number } | { kind: "close" };

/**
 * An HTTP/1.1 response read from the bytes of successive socket reads: the head (status and the framing headers),
 * then the body without its framing, each piece to `piece` (a 200 answer) or kept as the error's text (another).
 */
class AnswerParser {
  status = 0;
  bodyBytes = 0;
  private head = "";
  private framing: Framing | undefined;
  /** Chunked state: the size line being read, the bytes left in the current chunk, the CRLF after it. */
  private sizeLine = "";
  private chunkLeft = 0;
  private afterChunk = false;
  private complete = false;
  private readonly errorPieces: Buffer[] = [];

  constructor(private readonly piece: (bytes: Buffer) => void) {}

  /** The bytes of one read; true once the answer is complete. */
  take(buffer: Buffer, n: number): boolean {
    let at = 0;
    if (this.framing === undefined) {
      at = this.readHead(buffer, n);
      if (this.framing === undefined) return false;
    }
    const framing = this.framing as Framing;
    if (framing.kind === "chunked") this.readChunks(buffer, at, n);
    else if (framing.kind === "length") {
      const end = Math.min(n, at + framing.left);
      this.body(buffer, at, end);
      framing.left -= end - at;
      this.complete = framing.left === 0;
    } else this.body(buffer, at, n);
    return this.complete;
  }

  /** What a close of the socket means: nothing when the answer was complete (or framed by the close). */
  endedEarly(): Error | undefined {
    if (this.complete || this.framing?.kind === "close") return undefined;
    return Object.assign(new Error("socket hang up"), { code: "ECONNRESET" });
  }

  /** A failed answer's body, as text. */
  errorText(): string {
    return Buffer.concat(this.errorPieces).toString("utf8");
  }

  /** Reads the head from the read's bytes; returns where its body starts (n when the head is not complete yet). */
  private readHead(buffer: Buffer, n: number): number {
    const before = this.head.length;
    this.head += buffer.toString("latin1", 0, n);
    const end = this.head.indexOf("\r\n\r\n");
    if (end < 0) {
      if (this.head.length > MAX_HEAD)
        throw new Error(`the server's answer has no end of its head in ${MAX_HEAD} bytes`);
      return n;
    }
    const lines = this.head.slice(0, end).split("\r\n");
    const status = /^HTTP\/1\.[01] (\d{3})/.exec(lines[0]);
    if (!status) throw new Error(`not an HTTP answer: ${JSON.stringify(lines[0].slice(0, 80))}`);
    this.status = Number(status[1]);
    const header = (name: string) =>
      lines
        .slice(1)
        .find((l) => l.toLowerCase().startsWith(`${name}:`))
        ?.slice(name.length + 1)
        .trim();
    const length = header("content-length");
    if (/chunked/i.test(header("transfer-encoding") ?? "")) this.framing = { kind: "chunked" };
    else if (length !== undefined) this.framing = { kind: "length", left: Number(length) };
    else this.framing = { kind: "close" };
    if (this.framing.kind === "length" && this.framing.left === 0) this.complete = true;
    return end + 4 - before;
  }

  /**
   * The chunked body's bytes in buffer[at, n): each chunk's data moved down over the framing before it (in place:
   * the read's buffer is this socket's own), so the read's body goes on as one piece, not one per chunk.
   */
  private readChunks(buffer: Buffer, at: number, n: number) {
    const from = at;
    let to = at;
    while (at < n && !this.complete) {
      if (this.chunkLeft > 0) {
        const end = Math.min(n, at + this.chunkLeft);
        if (to !== at) buffer.copyWithin(to, at, end);
        to += end - at;
        this.chunkLeft -= end - at;
        at = end;
        if (this.chunkLeft === 0) this.afterChunk = true;
        continue;
      }
      const newline = buffer.indexOf(10, at);
      const lineEnd = newline < 0 || newline >= n ? n : newline;
      this.sizeLine += buffer.toString("latin1", at, lineEnd);
      at = lineEnd + 1;
      if (lineEnd === n) break;
      const line = this.sizeLine.trim();
      this.sizeLine = "";
      if (this.afterChunk) {
        // The CRLF that closes a chunk's data.
        this.afterChunk = false;
        if (line !== "") throw new Error("a chunk of the server's answer does not end with CRLF");
        continue;
      }
      const sizeText = line.split(";")[0].trim();
      if (!/^[0-9a-f]{1,12}$/i.test(sizeText))
        throw new Error(`a chunk of the server's answer has no size: ${JSON.stringify(line.slice(0, 40))}`);
      // The last chunk (size 0) ends the answer; its trailers, if any, are not read (the connection closes).
      const size = Number.parseInt(sizeText, 16);
      if (size === 0) this.complete = true;
      this.chunkLeft = size;
    }
    this.body(buffer, from, to);
  }

  private body(buffer: Buffer, from: number, to: number) {
    if (to <= from) return;
    this.bodyBytes += to - from;
    if (this.status === 200) this.piece(buffer.subarray(from, to));
    else this.errorPieces.push(Buffer.from(buffer.subarray(from, to)));
  }
}
