// The explorer's schedule table: every attempt's gap and time, filled in chunks so that a long
// schedule never holds the main thread.

let tableJob = 0;

/**
 * Fills the schedule table's `body` from a drawn schedule report (a long one's first rows and its
 * last: the core leaves rows out between them, said by `leftOutNote` in a row of its own, or
 * null when none is; the CSV and JSON downloads have every one), two hundred rows at a time so
 * that a long schedule never holds the main thread; `done()` once every row is in (not when a
 * newer table replaced it). The rows already there are written over, a cell only where its text
 * changed: a slider step rebuilt 400 rows' 1,600 elements, about 19 ms of each step.
 */
export function fillScheduleTable(body, report, leftOutNote, done) {
  const job = ++tableJob;
  const rows = report.rows;
  const shown = leftOutNote === null ? rows : [...rows.slice(0, -1), null, rows[rows.length - 1]];
  const texts = (r) => (r === null ? [leftOutNote] : [String(r.attempt), r.gap_text, r.elapsed_text]);
  const className = (r) => (r === null ? 'left-out' : r.capped ? 'capped' : '');
  const row = (r) => {
    const tr = document.createElement('tr');
    tr.className = className(r);
    for (const text of texts(r)) {
      const td = document.createElement('td');
      if (r === null) td.colSpan = 3;
      td.textContent = text;
      tr.append(td);
    }
    return tr;
  };
  const put = (index) => {
    const r = shown[index];
    const old = body.rows[index];
    const cells = texts(r);
    if (!old || old.cells.length !== cells.length) {
      if (old) old.replaceWith(row(r));
      else body.append(row(r));
      return;
    }
    if (old.className !== className(r)) old.className = className(r);
    cells.forEach((text, i) => {
      if (old.cells[i].textContent !== text) old.cells[i].textContent = text;
    });
  };
  while (body.rows.length > shown.length) body.lastElementChild.remove();
  const CHUNK = 200;
  const fill = (from) => {
    if (job !== tableJob) return;
    for (let index = from; index < Math.min(from + CHUNK, shown.length); index++) put(index);
    if (from + CHUNK >= shown.length) done();
    else setTimeout(() => fill(from + CHUNK), 0);
  };
  fill(0);
}
