// The survival map's rows, computed by a pool of workers (as many as the machine has cores, up
// to eight) and handed back as they arrive, so that the map draws progressively. A newer request
// supersedes the running one at once: its busy workers are stopped (their rows are no longer
// wanted) and the new map starts. Where no worker can start (a file:// page, a host whose CSP
// refuses workers, a bundled copy of the element) the rows are computed on the page, one per
// task, so that the page still answers between rows. The wasm core says which rows there are,
// in pieces for the workers (`survivalJobs`: rows in one piece share their storms), and computes
// each piece (`computeSurvivalRows`); this file only schedules them.

import { plainError } from './compute.js';

/** The least time between two partial results handed back, ms: a redraw per batch of rows. */
const PARTIAL_EVERY_MS = 60;

export class RowPool {
  /**
   * `jobsOf(settings, workers)` lists the pieces of rows for that many workers, 0 for this
   * thread (it throws on invalid settings); `rowsOf(settings, series, headrooms)` computes one
   * piece on this thread; `makeWorker()` returns a Worker running worker.js (or null: none is
   * to be tried now), or is null to compute on this thread. `idle`, if given, is where idle workers are taken from and given
   * back to (`take()`, `give(worker)`: the element's pool, which its charts share); by default
   * this pool keeps its own. `busy`, if given, counts the busy workers of several pools (the
   * page's elements) against its `limit`: a map then starts more than one worker only while the
   * count is under the limit, so that three maps on an 8-core machine run on about 8 workers,
   * not 24. `onRefused()`, if given, is told when a worker's script never ran (see
   * `startFailed`), so that others sharing the workers stop trying them too.
   */
  constructor({ jobsOf, rowsOf, makeWorker, size, idle, busy, onRefused }) {
    this.onRefused = onRefused ?? (() => {});
    this.jobsOf = jobsOf;
    this.rowsOf = rowsOf;
    this.makeWorker = makeWorker;
    this.size = Math.max(1, Math.min(8, size || 1));
    this.busy = busy ?? { count: 0, limit: Infinity };
    const own = [];
    this.idle = idle ?? { take: () => own.pop(), give: (worker) => own.push(worker) };
    // Workers whose script has run: they said `started`, or came back idle from a job.
    this.started = new WeakSet();
    this.current = null;
    this.nextId = 1;
  }

  /**
   * Computes the map of `settings`. `onResult(computed, partial, { done, total })` is called as
   * rows arrive (partial) and once with every row; `onError({ message, setting })` instead when the map
   * cannot be computed. Returns a handle whose `cancel()` stops it.
   */
  request(view, settings, { onResult, onError }) {
    this.stop();
    let jobs;
    try {
      jobs = this.jobsOf(settings, this.makeWorker ? this.size : 0);
    } catch (error) {
      setTimeout(() => onError(plainError(error)), 0);
      return { cancel() {} };
    }
    const run = {
      id: this.nextId++, view, settings, jobs, next: 0, rows: [], total: rowCount(jobs), busy: new Map(),
      onResult, onError, lastPartial: 0, partialTimer: 0, done: false,
    };
    this.current = run;
    if (!this.makeWorker || !this.fill(run)) {
      // No worker could start: the pieces for this thread (the settings were valid just now).
      run.jobs = this.jobsOf(settings, 0);
      run.next = 0;
      this.inline(run);
    }
    return { cancel: () => { if (this.current === run) this.stop(); } };
  }

  /** Stops the running map: its busy workers are terminated, its pending results dropped. */
  stop() {
    const run = this.current;
    if (!run) return;
    run.done = true;
    clearTimeout(run.partialTimer);
    this.terminate(run);
    this.current = null;
  }

  /** Terminates the run's busy workers. */
  terminate(run) {
    for (const worker of run.busy.keys()) worker.terminate();
    this.busy.count -= run.busy.size;
    run.busy.clear();
  }

  /** Gives every free worker a row; false when no worker could be started. */
  fill(run) {
    const room = () => run.busy.size === 0 || this.busy.count < this.busy.limit;
    while (run.next < run.jobs.length && run.busy.size < this.size && room()) {
      const idle = this.idle.take();
      if (idle) this.started.add(idle);
      const worker = idle ?? this.spawn();
      if (!worker) return run.busy.size > 0;
      const [series, headrooms] = run.jobs[run.next++];
      run.busy.set(worker, run.id);
      this.busy.count += 1;
      // `started` says only that the worker's script runs (see worker-serve.js).
      worker.onmessage = ({ data }) => {
        this.started.add(worker);
        if (!data.started) this.answered(run, worker, data);
      };
      worker.onerror = (event) => {
        event.preventDefault();
        if (!this.started.has(worker)) {
          // Once per map: the first failure terminates the other workers it started.
          if (run.busy.has(worker)) this.startFailed(run);
          return;
        }
        this.answered(run, worker, { error: { message: event.message || 'the worker failed', setting: null } });
      };
      worker.postMessage({ id: run.id, rows: [series, headrooms], settings: run.settings });
    }
    return true;
  }

  spawn() {
    if (!this.makeWorker) return null;
    try {
      return this.makeWorker();
    } catch {
      this.makeWorker = null;
      return null;
    }
  }

  /**
   * A worker's script never ran (refused: a file:// page, a host's worker-src, a server without
   * the file): no more workers, and the map is computed again on this thread from its first row.
   */
  startFailed(run) {
    this.makeWorker = null;
    this.onRefused();
    this.terminate(run);
    if (run.done) return;
    clearTimeout(run.partialTimer);
    run.partialTimer = 0;
    run.rows = [];
    run.jobs = this.jobsOf(run.settings, 0);
    run.next = 0;
    this.inline(run);
  }

  answered(run, worker, data) {
    // A message posted before its worker was stopped with its map.
    if (!run.busy.has(worker)) return;
    run.busy.delete(worker);
    this.busy.count -= 1;
    if (data.error) {
      // Its wasm may have trapped: not handed to anyone again.
      worker.terminate();
      this.fail(run, data.error);
      return;
    }
    this.idle.give(worker);
    this.arrived(run, data.rows);
    if (!run.done) this.fill(run);
  }

  /** A piece's rows arrived: hand back every row once all are in, else a partial map now and then. */
  arrived(run, rows) {
    run.rows.push(...rows);
    if (run.rows.length === run.total) {
      run.done = true;
      clearTimeout(run.partialTimer);
      this.current = null;
      run.onResult({ view: run.view, rows: run.rows.slice() }, false, counted(run));
      return;
    }
    const wait = run.lastPartial + PARTIAL_EVERY_MS - performance.now();
    if (run.partialTimer) return;
    run.partialTimer = setTimeout(() => {
      run.partialTimer = 0;
      if (run.done) return;
      run.lastPartial = performance.now();
      run.onResult({ view: run.view, rows: run.rows.slice() }, true, counted(run));
    }, Math.max(0, wait));
  }

  fail(run, error) {
    this.stop();
    run.onError(error);
  }

  /** The pieces (a row each) one per task on this thread. */
  inline(run) {
    const step = () => {
      if (run.done) return;
      const [series, headrooms] = run.jobs[run.next++];
      let rows;
      try {
        rows = this.rowsOf(run.settings, series, headrooms);
      } catch (error) {
        this.fail(run, plainError(error));
        return;
      }
      this.arrived(run, rows);
      if (!run.done) setTimeout(step, 0);
    };
    setTimeout(step, 0);
  }
}

function counted(run) {
  return { done: run.rows.length, total: run.total };
}

function rowCount(jobs) {
  return jobs.reduce((count, [, headrooms]) => count + headrooms.length, 0);
}
