// The explorer's schedule table: every attempt's gap and time, filled in chunks so that a long
// schedule never holds the main thread.

let tableJob = 0;

/**
 * Fills the schedule table's `body` from a drawn schedule report (a long one's first rows and its
 * last: the core leaves rows out between them, said by `leftOutNote` in a row of its own, or
 * null when none is; the CSV and JSON downloads have every one), two hundred rows at a time so
 * that a long schedule never holds the main thread; `done()` once every row is in (not when a
 * newer table replaced it).
 */
export function fillScheduleTable(body, report, leftOutNote, done) {
  const job = ++tableJob;
  const rows = report.rows;
  const shown = leftOutNote === null ? rows : [...rows.slice(0, -1), null, rows[rows.length - 1]];
  const row = (r) => {
    const tr = document.createElement('tr');
    if (r === null) {
      tr.className = 'left-out';
      const td = document.createElement('td');
      td.colSpan = 3;
      td.textContent = leftOutNote;
      tr.append(td);
      return tr;
    }
    if (r.capped) tr.className = 'capped';
    for (const text of [String(r.attempt), r.gap_text, r.elapsed_text]) {
      const td = document.createElement('td');
      td.textContent = text;
      tr.append(td);
    }
    return tr;
  };
  const CHUNK = 200;
  body.replaceChildren(...shown.slice(0, CHUNK).map(row));
  const more = (from) => {
    if (job !== tableJob) return;
    if (from >= shown.length) {
      done();
      return;
    }
    body.append(...shown.slice(from, from + CHUNK).map(row));
    setTimeout(() => more(from + CHUNK), 0);
  };
  if (shown.length <= CHUNK) done();
  else setTimeout(() => more(CHUNK), 0);
}
