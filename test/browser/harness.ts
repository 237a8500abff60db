// Build the site for a store, serve it on 127.0.0.1, and drive Debian's chromium offline.
import { spawnSync } from "node:child_process";
import { createServer, type Server } from "node:http";
import { createServer as createNetServer, type AddressInfo } from "node:net";
import { existsSync, readFileSync, statSync } from "node:fs";
import { extname, join, normalize } from "node:path";
import {
  chromium,
  type Browser,
  type BrowserContext,
  type ConsoleMessage,
  type Dialog,
  type Page,
  type Request,
  type Response,
} from "playwright-core";

const repo = new URL("../../", import.meta.url).pathname;
export const PAGES = [
  "/",
  "/rq1",
  "/rq2",
  "/rq3",
  "/explorer",
  "/leaderboard",
  "/compare",
  "/rq4",
  "/rq5",
  "/design",
  "/real",
  "/checklists",
  "/data",
];

/**
 * Builds the site with `gcpc site` into `out`, with its own build cache (`cache`), so the tests
 * never touch the repo's cache. `env` adds variables (e.g. proxies pointing nowhere).
 */
/**
 * Whether this machine can run a command with no network at all: `unshare -n` (a new network namespace
 * holding only a loopback device that is down), which needs root or user namespaces.
 */
export function networkNamespaceAvailable(): boolean {
  return spawnSync("unshare", ["-n", "true"]).status === 0;
}

export function buildSite(
  store: string,
  out: string,
  cache: string,
  env: Record<string, string> = {},
  args: string[] = [],
  options: { offline?: boolean } = {},
): { stdout: string; stderr: string } {
  const cli = [join(repo, "bin/gcpc.js"), "site", store, "--out", out, "--cache", cache, ...args];
  // Offline: the whole build inside a network namespace, so no request of any client (fetch ignores proxy
  // variables) can leave the machine; it fails rather than falls back when a request is attempted.
  const [command, argv] = options.offline ? ["unshare", ["-n", process.execPath, ...cli]] : [process.execPath, cli];
  const r = spawnSync(command, argv, {
    cwd: repo,
    env: { ...process.env, ...env },
    encoding: "utf8",
    maxBuffer: 1 << 28,
  });
  if (r.status !== 0) throw new Error(`site build failed:\n${r.stdout}\n${r.stderr}`);
  return { stdout: r.stdout, stderr: r.stderr };
}

const TYPES: Record<string, string> = {
  ".html": "text/html",
  ".js": "text/javascript",
  ".css": "text/css",
  ".json": "application/json",
  ".wasm": "application/wasm",
  ".csv": "text/csv",
  ".arrow": "application/vnd.apache.arrow.stream",
  ".parquet": "application/octet-stream",
  ".png": "image/png",
  ".svg": "image/svg+xml",
};

/** Minimal static server for dist/ (clean URLs: /rq1 → rq1.html). Loopback only. */
export function serve(dir: string): Promise<{ server: Server; origin: string; served: { bytes: number } }> {
  const served = { bytes: 0 }; // bytes sent, whoever asked (page, worker): what the bench reports per page
  const server = createServer((req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname)).replace(
      /^(\.\.[/\\])+/,
      "",
    );
    let file = join(dir, path);
    if (path.endsWith("/")) file = join(file, "index.html");
    else if (!existsSync(file) && existsSync(`${file}.html`)) file += ".html";
    if (!file.startsWith(dir) || !existsSync(file) || !statSync(file).isFile()) {
      res.writeHead(404);
      res.end("not found");
      return;
    }
    res.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream" });
    const body = readFileSync(file);
    served.bytes += body.length;
    res.end(body);
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => {
      const addr = server.address() as { port: number };
      resolve({ server, origin: `http://127.0.0.1:${addr.port}`, served });
    }),
  );
}

/**
 * Debian's chromium, headless, whose every request off 127.0.0.1 goes to a proxy that hangs up at once: such a
 * request fails in Chromium's own network stack (net::ERR_EMPTY_RESPONSE or a proxy error), whoever makes it (a
 * page, a worker, the favicon fetch), and openOffline records it. Playwright's request routing, used before,
 * saw only the requests it intercepted: it hid the favicon's 404 on every page, and it cost CPU per request.
 */
export async function launch(): Promise<Browser> {
  const seen = { connections: 0 };
  const hangUp = createNetServer((socket) => {
    seen.connections++;
    socket.destroy();
  });
  await new Promise<void>((listening) => hangUp.listen(0, "127.0.0.1", listening));
  const { port } = hangUp.address() as AddressInfo;
  const browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      `--proxy-server=http://127.0.0.1:${port}`,
      // <-loopback> drops Chromium's implicit bypass of localhost names: only the test server's address is direct.
      "--proxy-bypass-list=<-loopback>;127.0.0.1",
    ],
  });
  browser.on("disconnected", () => hangUp.close());
  hangUp.unref();
  hangUps.set(browser, seen);
  return browser;
}

/** Per browser from launch(): the connections its hang-up proxy took. */
const hangUps = new WeakMap<Browser, { connections: number }>();

/** How many connections the browser's requests off 127.0.0.1 have made to the proxy that hangs up. */
export function offLoopbackConnections(browser: Browser): number {
  return hangUps.get(browser)?.connections ?? 0;
}

export interface PageProblems {
  failed: string[];
  consoleErrors: string[];
  dialogs: string[];
}

/**
 * One browser context per browser, shared by the pages openOffline opens. Measured on the 2-core machine, a
 * page in a new context cost 2.9 s of CPU (a new profile, network service state and renderer set-up) and a new
 * page in a live context 1.1 s, for the same loads. Sharing hides no failed request: a request that leaves
 * the loopback fails, and a failure is never cached, so every page that makes one shows it.
 */
const contexts = new WeakMap<Browser, Promise<BrowserContext>>();

function sharedContext(browser: Browser): Promise<BrowserContext> {
  let context = contexts.get(browser);
  if (!context) {
    context = browser.newContext();
    contexts.set(browser, context);
  }
  return context;
}

/**
 * Pages a test has closed, kept open for the next openOffline of the same browser. A new page starts a renderer
 * process; a live page navigated within the site keeps its own. Measured on the 2-core machine, the hostile
 * site's 13 pages walked one at a time took 61 s of machine CPU with a new page each and 28 s reusing one; the
 * browser test files together, 505 s and 417 s. A page handed back is first taken to about:blank, so its
 * document's last events (an aborted request, a console line) are in before the next test's listeners are.
 */
const idlePages = new WeakMap<Browser, Page[]>();

/** Per page: takes off the listeners openOffline attached for the test that has it now. */
const detachers = new WeakMap<Page, () => void>();

async function takePage(browser: Browser): Promise<Page> {
  const idle = idlePages.get(browser) ?? [];
  idlePages.set(browser, idle);
  const reused = idle.pop();
  if (reused) return reused;
  const page = await (await sharedContext(browser)).newPage();
  const closeForGood = page.close.bind(page);
  // What the tests call page.close(): the page goes back to the pool, blank, with no listener of the test's.
  page.close = async () => {
    detachers.get(page)?.();
    if (page.isClosed()) return;
    try {
      await page.goto("about:blank");
    } catch {
      return closeForGood(); // a page that cannot even go blank is not reused
    }
    idle.push(page);
  };
  return page;
}

/**
 * Opens a page of a browser from {@link launch} (every request off 127.0.0.1 fails), at the given width and colour
 * scheme; records failed requests, console errors and dialogs.
 */
export async function openOffline(
  browser: Browser,
  url: string,
  waitUntil: "networkidle" | "commit" = "networkidle",
  view: { width?: number; colorScheme?: "light" | "dark" } = {},
  // A page of its own, never one handed back: what a reader's new tab costs (bench/site-bench.ts times it).
  fresh = false,
): Promise<{ page: Page; problems: PageProblems }> {
  const page = fresh ? await (await sharedContext(browser)).newPage() : await takePage(browser);
  // Waits end on the page's readiness (a selector), never on a clock: a loaded machine only makes them longer
  // (issue 55.5: site-explorer failed 6 of 9 tests at load 25 on fixed 30 s and 60 s waits). A page that never
  // gets ready fails the run's watchdog (scripts/run-tests.ts), not a guess at how long a load takes.
  page.setDefaultTimeout(0);
  page.setDefaultNavigationTimeout(0);
  await page.setViewportSize({ width: view.width ?? 1280, height: 900 });
  await page.emulateMedia({ colorScheme: view.colorScheme ?? "light" });
  const problems: PageProblems = { failed: [], consoleErrors: [], dialogs: [] };
  const listeners = {
    requestfailed: (r: Request) => problems.failed.push(`${r.url()} (${r.failure()?.errorText})`),
    response: (r: Response) => {
      if (r.status() >= 400) problems.failed.push(`${r.url()} HTTP ${r.status()}`);
    },
    console: (m: ConsoleMessage) => {
      if (m.type() === "error") problems.consoleErrors.push(m.text());
    },
    pageerror: (e: Error) => problems.consoleErrors.push(String(e)),
    dialog: async (d: Dialog) => {
      problems.dialogs.push(d.message());
      await d.dismiss();
    },
  };
  for (const [event, listener] of Object.entries(listeners)) page.on(event as "console", listener as () => void);
  detachers.set(page, () => {
    for (const [event, listener] of Object.entries(listeners)) page.off(event as "console", listener as () => void);
  });
  await page.goto(url, { waitUntil });
  return { page, problems };
}

/**
 * Resolves once the page is quiet: no DOM mutation in its main element for 5 animation frames in a row (the
 * Observable runtime has re-rendered after an input, a resize or a scheme change). Readiness, not a clock: on a
 * loaded machine the frames come later and the wait is longer.
 */
export async function settled(page: Page): Promise<void> {
  // A string, not a function: tsx's keepNames would put a __name helper into a function's source, which the
  // page does not define.
  await page.evaluate(`new Promise((done) => {
    let quiet = 0;
    const observer = new MutationObserver(() => { quiet = 0; });
    observer.observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
    const frame = () => {
      if (++quiet >= 5) { observer.disconnect(); done(); } else requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  })`);
}

/** Resolves once `ready()` holds, checked every 25 ms (a poll that ends on the condition, not a fixed sleep). */
export async function until(ready: () => boolean): Promise<void> {
  while (!ready()) await new Promise((r) => setTimeout(r, 25));
}
