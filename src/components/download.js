import { html } from "./vendor/htl.js";

/**
 * A chart with "download SVG" and "download PNG" buttons (figures a researcher can take
 * away). Works offline: the SVG is serialised from the page; the PNG is drawn on a canvas at 2×.
 * Plot returns an <svg> or a <figure> holding one (with legend and caption); the buttons save the
 * chart's main <svg>, with the page's text colour and font written in.
 */
export function downloadable(chart, name) {
  const svgOf = () =>
    chart.tagName.toLowerCase() === "svg"
      ? chart
      : (chart.querySelector("svg:not(legend svg)") ?? chart.querySelector("svg"));
  const serialise = () => {
    const svg = svgOf().cloneNode(true);
    const style = getComputedStyle(svgOf());
    svg.setAttribute("xmlns", "http://www.w3.org/2000/svg");
    svg.setAttribute(
      "style",
      `color: ${style.color}; background: ${getComputedStyle(document.body).backgroundColor}; ` +
        `font-family: ${style.fontFamily}`,
    );
    return new XMLSerializer().serializeToString(svg);
  };
  const save = (blob, ext) => {
    const a = document.createElement("a");
    a.href = URL.createObjectURL(blob);
    a.download = `${name}.${ext}`;
    a.click();
    setTimeout(() => URL.revokeObjectURL(a.href), 1000);
  };
  const svgButton = html`<button type="button" class="download-svg">download SVG</button>`;
  const pngButton = html`<button type="button" class="download-png">download PNG</button>`;
  svgButton.onclick = () => save(new Blob([serialise()], { type: "image/svg+xml" }), "svg");
  pngButton.onclick = () => {
    const svg = svgOf();
    const { width, height } = svg.getBoundingClientRect();
    const image = new Image();
    image.onload = () => {
      const canvas = document.createElement("canvas");
      canvas.width = 2 * width;
      canvas.height = 2 * height;
      const context = canvas.getContext("2d");
      context.scale(2, 2);
      context.drawImage(image, 0, 0, width, height);
      canvas.toBlob((blob) => save(blob, "png"), "image/png");
    };
    image.src = URL.createObjectURL(new Blob([serialise()], { type: "image/svg+xml" }));
  };
  return html`<div class="downloadable">${chart}<div class="download-buttons">${svgButton} ${pngButton}</div></div>`;
}
