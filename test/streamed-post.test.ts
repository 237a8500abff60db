// A ClickHouse answer read piece by piece (issue 57.5): store/clickhouse/row-binary.ts RowBinaryPieces against the
// whole-body decode, cut at every offset; store/clickhouse/streamed-post.ts against a real socket server writing
// HTTP/1.1 answers byte by byte as RFC 9112 frames them (chunked with extensions, a Content-Length, until close),
// a failed status, a connection cut inside the body, and a server that never answers.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createServer, type Socket } from "node:net";
import type { AddressInfo } from "node:net";
import { binaryColumn, fromRowBinary, RowBinaryPieces, rowBinary, rowsOf } from "../store/clickhouse/row-binary.js";
import { streamedPost } from "../store/clickhouse/streamed-post.js";

const COLUMNS = [
  binaryColumn("id", "String"),
  binaryColumn("x", "Nullable(Float64)"),
  binaryColumn("k", "Int64"),
  binaryColumn("b", "UInt8"),
];
const ROWS = Array.from({ length: 40 }, (_, k) => ({
  id: k === 7 ? "é".repeat(70_000) : `t${k}\t✓${"x".repeat(k * 13)}`, // row 7 is longer than a piece's first try
  x: k % 5 === 0 ? null : k / 7,
  k: k - 20,
  b: k % 2,
}));
const BODY = rowBinary(COLUMNS, ROWS);

/** The rows of `body` fed to RowBinaryPieces cut at `cuts` (each piece copied, then overwritten after its call). */
function piecewise(body: Buffer, cuts: number[]): Record<string, unknown>[] {
  const rows: Record<string, unknown>[] = [];
  const pieces = new RowBinaryPieces(rowsOf(COLUMNS, rows));
  let from = 0;
  for (const to of [...cuts, body.length]) {
    const piece = Buffer.from(body.subarray(from, to));
    pieces.push(piece);
    piece.fill(0xee); // the socket's buffer is reused: nothing may be read from a piece after its call
    from = to;
  }
  pieces.end();
  return rows;
}

test("an answer in pieces decodes to the whole body's rows, wherever it is cut", () => {
  const whole = fromRowBinary(COLUMNS, BODY);
  assert.equal(whole.length, ROWS.length);
  assert.deepEqual(whole, ROWS);
  const small = rowBinary(COLUMNS, ROWS.slice(0, 3));
  for (let cut = 0; cut <= small.length; cut++)
    assert.deepEqual(piecewise(small, [cut]), ROWS.slice(0, 3), `one cut at ${cut}`);
  for (const size of [1, 2, 3, 7, 100, 4096, 65_535, 65_536, 100_000]) {
    const cuts = Array.from({ length: Math.ceil(BODY.length / size) - 1 }, (_, k) => (k + 1) * size);
    assert.deepEqual(piecewise(BODY, cuts), ROWS, `pieces of ${size} bytes`);
  }
});

test("an answer that ends inside a row names the column, piece by piece as whole", () => {
  const cut = BODY.subarray(0, BODY.length - 5); // inside the last row's Int64
  assert.throws(() => piecewise(cut, [10, 1000]), /row-binary: the answer ends inside column k/);
  assert.throws(() => fromRowBinary(COLUMNS, cut), /row-binary: the answer ends inside column k/);
});

/** A server that answers each connection with `answer` (after reading the request's head and body). */
async function serving(answer: (socket: Socket) => void): Promise<{ port: number; close: () => Promise<void> }> {
  const server = createServer((socket) => {
    let got = Buffer.alloc(0);
    socket.on("data", (d) => {
      got = Buffer.concat([got, d]);
      const head = got.indexOf("\r\n\r\n");
      if (head < 0) return;
      const length = Number(/content-length: (\d+)/i.exec(got.subarray(0, head).toString("latin1"))?.[1] ?? 0);
      if (got.length >= head + 4 + length) {
        socket.removeAllListeners("data");
        answer(socket);
      }
    });
    socket.on("error", () => {});
  });
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  const port = (server.address() as AddressInfo).port;
  return { port, close: () => new Promise<void>((ok) => server.close(() => ok())) };
}

/** Writes `bytes` in pieces of `size`, each its own write after the last drained (so the reads see them cut). */
async function writeCut(socket: Socket, bytes: Buffer, size: number) {
  for (let at = 0; at < bytes.length; at += size)
    await new Promise<void>((ok) => socket.write(bytes.subarray(at, at + size), () => ok()));
}

/** `body` framed as chunks of the given sizes, with a chunk extension on some, and the last chunk. */
function chunked(body: Buffer, sizes: number[]): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  for (let k = 0; at < body.length; k++) {
    const n = Math.min(sizes[k % sizes.length], body.length - at);
    parts.push(Buffer.from(`${n.toString(16)}${k % 3 === 1 ? ";name=value" : ""}\r\n`, "latin1"));
    parts.push(body.subarray(at, at + n), Buffer.from("\r\n"));
    at += n;
  }
  parts.push(Buffer.from("0\r\n\r\n"));
  return Buffer.concat(parts);
}

/** POSTs to the server on `port` and decodes the answer's rows piece by piece, as connection.ts does. */
async function rowsFrom(port: number, timeoutMs = 10_000) {
  const rows: Record<string, unknown>[] = [];
  const pieces = new RowBinaryPieces(rowsOf(COLUMNS, rows));
  const bytes = await streamedPost(
    { host: "127.0.0.1", port, path: "/?x=1", body: Buffer.from("SELECT 1"), timeoutMs },
    (b) => pieces.push(b),
  );
  pieces.end();
  return { rows, bytes };
}

const OK_CHUNKED = "HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nTransfer-Encoding: chunked\r\n\r\n";

test("a chunked answer read as its rows, whatever the chunk sizes and however the socket cuts them", async () => {
  for (const [sizes, cut] of [
    [[3900], 65_536],
    [[1, 2, 3, 4096, 17], 1],
    [[70_001, 5], 7],
    [[BODY.length], 3],
  ] as [number[], number][]) {
    const server = await serving((socket) => {
      writeCut(socket, Buffer.concat([Buffer.from(OK_CHUNKED, "latin1"), chunked(BODY, sizes)]), cut).then(() =>
        socket.end(),
      );
    });
    try {
      const { rows, bytes } = await rowsFrom(server.port);
      assert.equal(bytes, BODY.length, `chunks of ${sizes}, writes of ${cut}`);
      assert.deepEqual(rows, ROWS, `chunks of ${sizes}, writes of ${cut}`);
    } finally {
      await server.close();
    }
  }
});

test("an answer framed by Content-Length, or by the close, is read whole", async () => {
  for (const head of [`HTTP/1.1 200 OK\r\nContent-Length: ${BODY.length}\r\n\r\n`, "HTTP/1.0 200 OK\r\n\r\n"]) {
    const server = await serving((socket) => {
      writeCut(socket, Buffer.concat([Buffer.from(head, "latin1"), BODY]), 5000).then(() => socket.end());
    });
    try {
      assert.deepEqual((await rowsFrom(server.port)).rows, ROWS, head.split("\r\n")[1]);
    } finally {
      await server.close();
    }
  }
});

test("a failed status is the server's text; a cut answer is a reset; a silent server times out", async () => {
  const failed = await serving((socket) => {
    const text = "Code: 60, e.displayText() = DB::Exception: Table s.t doesn't exist.\n";
    socket.end(`HTTP/1.1 404 Not Found\r\nTransfer-Encoding: chunked\r\n\r\n${chunked(Buffer.from(text), [9])}`);
  });
  const cut = await serving((socket) => {
    const framed = chunked(BODY, [4096]);
    socket.end(Buffer.concat([Buffer.from(OK_CHUNKED, "latin1"), framed.subarray(0, framed.length >> 1)]));
  });
  const silent = await serving(() => {});
  try {
    await assert.rejects(rowsFrom(failed.port), /^Error: Code: 60, e\.displayText\(\) = DB::Exception: Table s\.t/);
    await assert.rejects(rowsFrom(cut.port), (e: { code?: string; message?: string }) => {
      assert.equal(e.code, "ECONNRESET");
      assert.equal(e.message, "socket hang up");
      return true;
    });
    await assert.rejects(rowsFrom(silent.port, 300), /Timeout error: no answer in 300 ms/);
  } finally {
    await Promise.all([failed.close(), cut.close(), silent.close()]);
  }
});
