// Small DOM helpers shared by the explorer, the embed page and the <backoff-lab> element: canvas
// sizing, lists of text, chart options, what a chart says when it cannot be drawn, downloads and
// the clipboard, and the progress shown in a chart's place while its computation runs.

/**
 * Device pixels per CSS pixel for a canvas backing store, and the canvas sized to match: to `box`
 * (its CSS size as a ResizeObserver last reported it) when given, else to its measured box.
 */
export function sizeCanvas(canvas, box = canvas.getBoundingClientRect()) {
  const scale = Math.min(4, Math.max(1, window.devicePixelRatio || 1));
  const { width, height } = box;
  const w = Math.max(1, Math.round(width * scale));
  const h = Math.max(1, Math.round(height * scale));
  if (canvas.width !== w || canvas.height !== h) {
    canvas.width = w;
    canvas.height = h;
  }
  return scale;
}

/** The options every chart is drawn with; `background` is CSS text the core reads, or none. */
export function chartOptions(dark, scale, logScale, background) {
  return background ? { dark, scale, logScale, background } : { dark, scale, logScale };
}

/** Whether to draw dark: the settings' `theme` (`light`, `dark`), else the reader's scheme. */
export function isDark(theme, darkQuery) {
  return theme === 'dark' || (theme !== 'light' && darkQuery.matches);
}

/** An element's text as a list of <li>, text only. */
export function listItems(texts) {
  return texts.map((text) => {
    const li = document.createElement('li');
    li.textContent = text;
    return li;
  });
}

/** Fills `table` with a chart's numbers (`numbers`: `headers` and `rows` of text, from Rust),
 * keeping its `<caption>`. */
export function fillNumberTable(table, numbers) {
  // Each row's first cell names it (a percentile, a series): a header of its row, so that a
  // screen reader says it with every number of the row, as the column's head.
  const row = (cells, scope) => {
    const tr = document.createElement('tr');
    cells.forEach((text, i) => {
      const cell = document.createElement(scope === 'col' || i === 0 ? 'th' : 'td');
      if (cell.tagName === 'TH') cell.scope = i === 0 ? scope : 'col';
      cell.textContent = text;
      tr.append(cell);
    });
    return tr;
  };
  const head = document.createElement('thead');
  head.append(row(numbers.headers, 'col'));
  const body = document.createElement('tbody');
  body.append(...numbers.rows.map((cells) => row(cells, 'row')));
  table.replaceChildren(...(table.caption ? [table.caption] : []), head, body);
}

/**
 * Fills `element` with `caption`. A caption of several lines (the storm's: one per series, each
 * opening with its series' label and a colon) becomes one `.caption-line` block per line, the
 * label of `labels[i]` in bold; the element's text stays the caption, lines joined by `\n`.
 */
export function fillCaption(element, caption, labels = []) {
  const lines = caption.split('\n');
  if (lines.length === 1) {
    element.textContent = caption;
    return;
  }
  element.replaceChildren(...lines.flatMap((line, i) => {
    const block = document.createElement('span');
    block.className = 'caption-line';
    const label = labels[i];
    if (label && line.startsWith(`${label}: `)) {
      const strong = document.createElement('strong');
      strong.textContent = label;
      block.append(strong, line.slice(label.length));
    } else {
      block.textContent = line;
    }
    return i === 0 ? [block] : ['\n', block];
  }));
}

/** What a chart says in its caption when it could not be drawn: `error`'s message. */
export function notDrawnCaption(error) {
  return `This chart could not be drawn: ${error && error.message ? error.message : error}`;
}

/**
 * The first line of the caption of a chart that still shows an older picture: its caption
 * below is of those older inputs, not of the current ones, which `message` refuses.
 */
export function outOfDateNote(message) {
  return `Not redrawn (${message}): the chart and the caption below are of the last inputs it could be drawn for.`;
}

/** Saves `blob` as `filename` through a download link. */
export function download(blob, filename) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // The download has started from the click; the object URL is freed a while later.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/** Puts `text` on the clipboard; throws where the browser does not allow it. */
export async function copyText(text) {
  if (!navigator.clipboard || typeof navigator.clipboard.writeText !== 'function') {
    throw new Error('no clipboard');
  }
  await navigator.clipboard.writeText(text);
}

/** How long a computation runs before its chart shows that it is working, ms. */
const SHOW_AFTER_MS = 100;

/**
 * Progress in a chart's place: after 100 ms of computing, the time it has taken and a Stop
 * button over the chart's last picture. `onStop(view)` is called when the reader presses Stop.
 */
export class Progress {
  constructor(onStop) {
    this.onStop = onStop;
    this.timers = new Map();
    // When each view's progress was first shown, while it is.
    this.shownSince = new Map();
  }

  box(view) {
    const canvas = document.getElementById(view);
    let box = canvas.parentElement.querySelector('.progress');
    if (!box) {
      box = document.createElement('div');
      box.className = 'progress';
      box.setAttribute('role', 'status');
      box.hidden = true;
      // The status says once that the chart is being computed; the running time beside it is
      // hidden from screen readers, which read every change of a status (ten a second).
      const said = document.createElement('span');
      said.className = 'visually-hidden';
      // The chart's name as its downloads' group gives it ("Download the herd chart").
      const group = canvas.closest('figure')?.querySelector('.exports')?.getAttribute('aria-label');
      const chart = group?.replace(/^Download /, '') ?? 'this chart';
      said.textContent = `Computing ${chart}`;
      const text = document.createElement('span');
      text.className = 'progress-text';
      text.setAttribute('aria-hidden', 'true');
      const stop = document.createElement('button');
      stop.type = 'button';
      stop.textContent = 'Stop';
      stop.setAttribute('aria-label', `Stop computing ${chart}`);
      stop.addEventListener('click', () => this.onStop(view));
      box.append(said, text, stop);
      canvas.parentElement.append(box);
    }
    return box;
  }

  /** Shows `view`'s progress while `busy()` holds, once it has taken 100 ms; `detail()` adds
   * to the time taken (the rows done so far). A progress already shown, for the computation this
   * one supersedes, stays shown and keeps counting: hidden and shown again at each slider step,
   * it flickered, and its status was said again (outside review). */
  watch(view, busy, detail = () => '') {
    clearTimeout(this.timers.get(view));
    const started = this.shownSince.get(view) ?? performance.now();
    const tick = () => {
      if (!busy()) {
        this.hide(view);
        return;
      }
      const box = this.box(view);
      box.querySelector('.progress-text').textContent =
        `computing… ${((performance.now() - started) / 1000).toFixed(1)} s${detail()}`;
      box.hidden = false;
      if (!this.shownSince.has(view)) this.shownSince.set(view, started);
      this.timers.set(view, setTimeout(tick, 100));
    };
    this.timers.set(view, setTimeout(tick, SHOW_AFTER_MS));
  }

  hide(view) {
    clearTimeout(this.timers.get(view));
    this.timers.delete(view);
    this.shownSince.delete(view);
    const box = document.getElementById(view)?.parentElement.querySelector('.progress');
    if (!box) return;
    // The keyboard on Stop stays in the chart's figure: hidden, Stop dropped the focus to the
    // page's body, and the next Tab started over from the top.
    if (box.contains(document.activeElement)) {
      const figure = box.closest('figure') ?? box.parentElement;
      figure.tabIndex = -1;
      figure.focus({ preventScroll: true });
    }
    box.hidden = true;
  }
}
