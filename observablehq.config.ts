// Observable Framework config. Offline by design (README, "The report site"):
// no Google Fonts (globalStylesheets: []), node_modules imports only, self-hosted DuckDB-wasm.
export default {
  root: "src",
  // The store's name is in every page's static HTML (title, sidebar): a built site says what it shows.
  title: process.env.GCPC_STORE_NAME ? `GCPC workbench: ${process.env.GCPC_STORE_NAME}` : "GCPC workbench",
  globalStylesheets: [],
  // A system sans-serif stack (no web-font fetch), and tables whose text wraps instead of being cut.
  // The site's own icon: without one every page asks for /favicon.ico, which a static host answers with a 404 that
  // the browser logs (Framework resolves the local file and ships it under _file/).
  head: `<link rel="icon" href="./favicon.svg" type="image/svg+xml">
<style>
:root { --serif: system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans",
  "Liberation Sans", sans-serif; --sans-serif: var(--serif); }
.gcpc-table { overflow-x: auto; max-width: 100%; }
.gcpc-card { text-decoration: none; color: inherit; }
.gcpc-card p { color: var(--theme-foreground-muted); }
/* Inputs' sticky table header is white in its own stylesheet: follow the page's theme (dark mode). */
form table thead th { background: var(--theme-background) !important; }
.gcpc-table table { max-width: none; }
.gcpc-table td, .gcpc-table th { white-space: normal; overflow-wrap: break-word; max-width: 32rem;
  vertical-align: top; }
.scroll-x { overflow-x: auto; max-width: 100%; }
.scroll-x td.evidence { min-width: 12rem; white-space: normal; overflow-wrap: anywhere; }
.filter-chips button { margin-right: 0.5rem; cursor: pointer; }
form table td:has(> .wrap-cell) { white-space: normal; }
/* Workbench pages (tables first: Checklists, explorer, Compare, Leaderboard, Real evaluations) use the full
   width: a page opts in with toc: false and an element of class "workbench". */
#observablehq-main:has(.workbench) > .observablehq--block, #observablehq-main:has(.workbench) > * { max-width: none; }
#observablehq-main:has(.workbench) { max-width: none; }
/* Text contrast ≥ 4.5:1 in both schemes (WCAG AA; test/browser/contrast.ts): the theme's muted grey is 4.1:1
   on the light sidebar, and the footer's faint grey 3.9:1 on the dark page. */
@media (prefers-color-scheme: light) { :root { --theme-foreground-muted: #5a5d62; } }
#observablehq-footer, #observablehq-footer a { color: var(--theme-foreground-muted); }
/* Verdict chips of the Compare page's drill-down: dark text on a light chip in both schemes (≥ 4.5:1). */
.verdict { display: inline-block; padding: 0 0.3rem; border-radius: 3px; color: #1b1b1b; }
.verdict-yes { background: #cdebc5; } .verdict-no { background: #f7cccc; } .verdict-abstain { background: #fbe6a6; }
.verdict-grade { background: #d3e0f3; } .verdict-na { background: #e4e4e4; }
tr.differs > td:first-child { border-left: 3px solid #b35806; }
/* A long store name (the site's title) wraps in the sidebar instead of running out of it. */
#observablehq-sidebar > ol:first-child > label, #observablehq-sidebar-toggle + label, #observablehq-sidebar a,
#observablehq-sidebar span { white-space: normal; overflow-wrap: anywhere; }
</style>`,
  // The navigation gcpc site computed from the store (report/site/capabilities.ts): the user's runs first, the
  // paper's pages only where the store's design supports them. Without it (a bare `observable` run), every page.
  pages: process.env.GCPC_SITE_PAGES
    ? JSON.parse(process.env.GCPC_SITE_PAGES)
    : [
        { name: "Overview: your runs", path: "/" },
        { name: "Leaderboard", path: "/leaderboard" },
        { name: "Compare arms and methods", path: "/compare" },
        { name: "History of versions", path: "/history" },
        { name: "RQ1 Discrimination", path: "/rq1" },
        { name: "RQ2 Human agreement", path: "/rq2" },
        { name: "RQ3 Skill effects", path: "/rq3" },
        { name: "FAIL→FAIL explorer", path: "/explorer" },
        { name: "RQ4 Ablations", path: "/rq4" },
        { name: "RQ5 Reliability and transfer", path: "/rq5" },
        { name: "Design (power)", path: "/design" },
        { name: "Real evaluations", path: "/real" },
        { name: "Checklists", path: "/checklists" },
        { name: "Data", path: "/data" },
      ],
  footer: "GCPC workbench — every figure computed by gcpc site, at build time, from the store named in the title.",
  search: false,
  // Links end in .html so the site works on any static server, no clean-URL rewrites needed.
  preserveExtension: true,
  output: process.env.GCPC_SITE_OUT ?? "dist",
};
