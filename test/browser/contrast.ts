import type { Page } from "playwright-core";

/**
 * In-page code, as text: tsx compiles a function passed to page.evaluate with helpers (__name) that do not
 * exist in the page. Visible HTML text whose contrast with its effective background is below WCAG 2.1 AA:
 * 4.5:1, or 3:1 for large text (≥ 24 px, or bold ≥ 18.66 px). Each element with a direct text node is
 * measured against the first ancestor background at least half opaque (the canvas's colour at the root).
 * Chart text drawn in SVG is left out: its colour is a fill, chosen by the chart's palette.
 */
const LOW_CONTRAST = `(() => {
  // Any CSS colour (rgb(), color(srgb …), oklch(), …) as 0–255 RGBA, through a 1×1 canvas.
  const ctx = document.createElement("canvas").getContext("2d", { willReadFrequently: true });
  const rgb = (s) => {
    ctx.clearRect(0, 0, 1, 1);
    ctx.fillStyle = "rgba(0, 0, 0, 0)";
    ctx.fillStyle = s;
    ctx.fillRect(0, 0, 1, 1);
    const d = ctx.getImageData(0, 0, 1, 1).data;
    return [d[0], d[1], d[2], d[3] / 255];
  };
  const channel = (c) => { const x = c / 255; return x <= 0.03928 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4; };
  const luminance = (c) => 0.2126 * channel(c[0]) + 0.7152 * channel(c[1]) + 0.0722 * channel(c[2]);
  const backgroundOf = (el) => {
    for (let e = el; e; e = e.parentElement) {
      const c = rgb(getComputedStyle(e).backgroundColor);
      if (c[3] >= 0.5) return c;
    }
    return matchMedia("(prefers-color-scheme: dark)").matches ? [0, 0, 0, 1] : [255, 255, 255, 1];
  };
  const out = [];
  for (const el of document.querySelectorAll("body *")) {
    if (el.closest("svg") || !(el instanceof HTMLElement)) continue;
    const text = [...el.childNodes].filter((n) => n.nodeType === Node.TEXT_NODE).map((n) => n.textContent || "").join("").trim();
    if (!text) continue;
    const style = getComputedStyle(el);
    const box = el.getBoundingClientRect();
    if (style.visibility === "hidden" || style.display === "none" || box.width === 0 || box.height === 0) continue;
    if (Number(style.opacity) === 0) continue;
    const fg = rgb(style.color);
    const bg = backgroundOf(el);
    const l = [luminance(fg), luminance(bg)].sort((a, b) => b - a);
    const ratio = (l[0] + 0.05) / (l[1] + 0.05);
    const size = Number.parseFloat(style.fontSize);
    const large = size >= 24 || (size >= 18.66 && Number(style.fontWeight) >= 700);
    if (ratio < (large ? 3 : 4.5))
      out.push({ text: text.slice(0, 60), ratio: Math.round(ratio * 100) / 100, color: style.color, background: "rgb(" + bg.slice(0, 3).join(", ") + ")" });
  }
  return out;
})()`;

export async function lowContrastText(
  page: Page,
): Promise<{ text: string; ratio: number; color: string; background: string }[]> {
  return page.evaluate(LOW_CONTRAST);
}
