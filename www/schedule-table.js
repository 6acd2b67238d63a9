// The explorer's schedule table: every attempt's gap and time, as the core hands them to the page
// (a long schedule's first 399 rows and its last).

/**
 * Fills the schedule table's `body` from a drawn schedule report (a long one's first rows and its
 * last: the core leaves rows out between them, said by `leftOutNote` in a row of its own, or
 * null when none is; the CSV and JSON downloads have every one), then calls `done()`. The rows
 * already there are written over, a cell only where its text changed (a slider step rebuilt 400
 * rows' 1,600 elements, about 19 ms of each step), all in one pass: filled in chunks, one task
 * after another, a table showed the new schedule's first rows above the old one's last (outside
 * code review).
 */
export function fillScheduleTable(body, report, leftOutNote, done) {
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
  while (body.rows.length > shown.length) body.lastElementChild.remove();
  shown.forEach((r, index) => {
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
  });
  done();
}
