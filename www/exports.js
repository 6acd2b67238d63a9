// The explorer's export buttons: each chart as PNG (its canvas) or SVG (drawn again by Rust), the
// numbers of the jitter, herd and storm charts as CSV, the schedule and the staleness report as
// CSV, JSON or a Markdown table (text made by Rust). Each
// button says what happened in the status next to its group.
import { viewCsv, viewSvg } from './pkg/backoff_lab.js';
import { chartOptions, copyText, download } from './ui.js';

/** The status next to a group of export buttons. */
export function say(button, text) {
  const status = button.closest('.exports')?.querySelector('.export-status');
  if (status) status.textContent = text;
}

function failure(error) {
  return error && error.message ? error.message : String(error);
}

// Every download is saved as `<stem>.<extension>`, the stem made by Rust (`fileStem`) from what
// it shows and the settings it was drawn from.

/** The chart on `canvas` as `<stem>.png`. */
export function exportPng(canvas, stem, button) {
  canvas.toBlob((blob) => {
    if (blob) {
      download(blob, `${stem}.png`);
      say(button, `Saved ${stem}.png.`);
    } else {
      say(button, 'The picture could not be saved.');
    }
  }, 'image/png');
}

/** The chart as SVG at the canvas's size, from what it was last drawn from (`drawn`). */
export function exportSvg(canvas, view, stem, drawn, dark, button) {
  if (!drawn) {
    say(button, 'No SVG: the chart is not drawn yet.');
    return;
  }
  const options = chartOptions(dark, 1, drawn.settings.log === 'true');
  try {
    // wasm measures the SVG's text with an offscreen canvas: nothing here touches the CSP.
    const svg = viewSvg(view, drawn.settings, drawn.computed, options, canvas.clientWidth, canvas.clientHeight);
    download(new Blob([svg], { type: 'image/svg+xml' }), `${stem}.svg`);
    say(button, `Saved ${stem}.svg.`);
  } catch (error) {
    say(button, `No SVG: ${failure(error)}`);
  }
}

/** The numbers the chart was last drawn from (`drawn`) as `<stem>.csv`. */
export function exportChartCsv(view, stem, drawn, button) {
  if (!drawn) {
    say(button, 'No CSV: the chart is not drawn yet.');
    return;
  }
  try {
    download(new Blob([viewCsv(view, drawn.settings, drawn.computed, drawn.table)], { type: 'text/csv' }), `${stem}.csv`);
    say(button, `Saved ${stem}.csv.`);
  } catch (error) {
    say(button, `No CSV: ${failure(error)}`);
  }
}

const FORMATS = {
  csv: { type: 'text/csv', extension: 'csv' },
  json: { type: 'application/json', extension: 'json' },
};

/** A report (the schedule, staleness or survival map's) as `<stem>.csv` or `.json`;
 * `text(format)` makes it. */
export function exportReport(stem, text, format, button) {
  try {
    const { type, extension } = FORMATS[format];
    download(new Blob([text(format)], { type }), `${stem}.${extension}`);
    say(button, `Saved ${stem}.${extension}.`);
  } catch (error) {
    say(button, `No ${format.toUpperCase()}: ${failure(error)}`);
  }
}

/** A report as a Markdown table on the clipboard, or saved as a file where copying is refused. */
export async function copyReportMarkdown(stem, text, button) {
  let markdown;
  try {
    markdown = text('markdown');
  } catch (error) {
    say(button, `No Markdown: ${failure(error)}`);
    return;
  }
  try {
    await copyText(markdown);
    say(button, 'Markdown table copied.');
  } catch {
    download(new Blob([markdown], { type: 'text/markdown' }), `${stem}.md`);
    say(button, `This browser did not allow copying: saved ${stem}.md instead.`);
  }
}
