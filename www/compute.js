// The charts' costly steps, run in workers (one per chart, so that a storm does not wait for a
// histogram). A newer request for a chart supersedes the older one at once: a result that is no
// longer wanted is never delivered, and a worker still busy with one after a moment is stopped
// and replaced. A chart whose worker is busy when a request arrives gets its quicker first run
// (the wasm core's `previewSettings`, for sampled charts) from a second worker of its own, started
// then, so that its first picture does not wait for the superseded run to end. A step the core
// says is cheap (`computesInline`: a few milliseconds) runs on the page's own thread instead,
// before the next paint: a worker's round trip, or its start on a cold load, costs more.

/**
 * A thrown error as plain data, as it crosses to the page from a worker or the page's own
 * thread: its message, the setting it is about (`setting`, or the JS API's `field`) and whether
 * it is a chart's own limit on a value the schedule takes (`chartLimit`, set by the core).
 */
export function plainError(error) {
  return {
    message: error?.message ?? String(error),
    setting: error?.setting ?? error?.field ?? null,
    chartLimit: error?.chartLimit === true,
  };
}

/** How long a superseded computation may finish before its worker is replaced, ms. */
const REPLACE_AFTER_MS = 150;

export class Computer {
  /**
   * `makeWorker()` returns a new Worker running worker.js; `inline(view, settings)` computes on
   * the main thread instead when no worker can be made (then the page says so);
   * `previewOf(view, settings)` gives the settings of a chart's quicker first run, or null;
   * `cheap(view, settings)` whether `inline` is cheap enough to run at once instead. With
   * `pool`, a slot's worker goes back to a pool of at most that many idle workers once its work
   * is done, for any slot to take (the elements of a page, each a key of its own); without it
   * (the page: one slot per view) each slot keeps its worker, and what it remembers.
   */
  constructor(makeWorker, inline, previewOf, cheap, { pool = 0 } = {}) {
    this.makeWorker = makeWorker;
    this.inline = inline;
    this.previewOf = previewOf;
    this.cheap = cheap;
    this.slots = new Map();
    this.nextId = 1;
    this.workersWork = true;
    this.poolSize = pool;
    this.idle = [];
    // Workers whose script has run (they said `started`).
    this.started = new WeakSet();
  }

  /** A slot's worker, idle now, back to the pool (or stopped when the pool is full). */
  park(slot) {
    if (!this.poolSize || !slot.worker || slot.running) return;
    this.give(slot.worker);
    slot.worker = null;
  }

  /** The pool, for another user of the same workers (the element's survival map): an idle
   * worker, whose script has run, or undefined. */
  take() {
    return this.idle.pop();
  }

  /** Workers cannot start here (another user of them found so): no more are tried. */
  refused() {
    this.workersWork = false;
  }

  /** Whether workers are still tried. */
  get tryWorkers() {
    return this.workersWork;
  }

  /** `worker`, idle now, back to the pool (or stopped when the pool is full). */
  give(worker) {
    if (this.idle.length < this.poolSize) this.idle.push(worker);
    else worker.terminate();
  }

  /** The requester `key` is gone (an element removed): its work stops, its workers are freed. */
  release(key) {
    for (const name of [key, `${key} quick`]) {
      const slot = this.slots.get(name);
      if (!slot) continue;
      if (slot.running) this.replace(slot);
      else this.park(slot);
      slot.worker?.terminate();
      this.slots.delete(name);
    }
  }

  /** The slot of `key`: a chart's view, or its quick worker's (`quick`). */
  slot(key, quick = false) {
    let slot = this.slots.get(key);
    if (!slot) {
      slot = { worker: null, running: null, queued: null, quick };
      this.slots.set(key, slot);
    }
    return slot;
  }

  spawn(slot) {
    let worker = this.take();
    // A worker from the pool has answered before: its script runs.
    if (worker) this.started.add(worker);
    try {
      worker ??= this.makeWorker();
    } catch {
      this.workersWork = false;
      return null;
    }
    const answered = (data) => (slot.quick ? this.answeredQuick(slot, data) : this.answered(slot, data));
    worker.onmessage = ({ data }) => {
      // The worker's script runs (worker-serve.js says so first): from now on a failure is the
      // computation's, reported as its error.
      this.started.add(worker);
      if (!data.started) answered(data);
    };
    worker.onerror = (event) => {
      event.preventDefault();
      if (!this.started.has(worker)) {
        // Its script never ran (refused: a file:// page, a host's worker-src, a server without
        // the file): the work is done on this thread from now on, the newest job included.
        this.workersWork = false;
        worker.terminate();
        slot.worker = null;
        const job = slot.queued ?? slot.running;
        slot.queued = null;
        slot.running = null;
        if (job && !slot.quick) this.runInline(job);
        return;
      }
      answered({ id: slot.running?.id, error: { message: event.message || 'the worker failed', setting: null } });
    };
    slot.worker = worker;
    return worker;
  }

  /**
   * Computes `view` for `settings`. `onResult(computed, partial)` may be called with a partial
   * result first (not when `previewed`: the page drew a first run already); `onError(error)`
   * with `{ message, setting }`. Returns a handle whose `cancel()` drops the request (and stops
   * its worker if it is running). `key` names the requester when several share this computer
   * (elements on one page, each its own key): a newer request supersedes only an older one of
   * the same key; by default the view is the key (the page: one chart per view).
   */
  request(view, settings, { onResult, onError }, { previewed = false, key = view } = {}) {
    const job = {
      id: this.nextId++, view, key, settings, onResult, onError, started: 0, cancelled: false,
      previewed, finished: false,
    };
    // A refusal to say (settings it cannot read) leaves the step to the worker, which reports it.
    let cheap = false;
    try {
      cheap = this.cheap(view, settings);
    } catch {}
    if (cheap || !this.workersWork) {
      this.runInline(job, cheap);
      return { cancel: () => { job.cancelled = true; } };
    }
    const slot = this.slot(key);
    slot.queued = job;
    // A busy worker is either still finishing a superseded run or replaced by a fresh one that
    // must load the wasm first: either way the quick worker draws the first picture sooner.
    const busy = Boolean(slot.running);
    if (busy && performance.now() - slot.running.started > REPLACE_AFTER_MS) this.replace(slot);
    if (!slot.running) this.start(slot);
    if (busy && !previewed) this.startQuick(job, this.previewOf(view, settings));
    return { cancel: () => this.cancel(slot, job) };
  }

  start(slot) {
    const job = slot.queued;
    slot.queued = null;
    if (!job) return;
    const worker = slot.worker ?? this.spawn(slot);
    if (!worker) {
      this.runInline(job);
      return;
    }
    job.started = performance.now();
    slot.running = job;
    // The quicker first run only if the quick worker has not drawn one already.
    worker.postMessage({ id: job.id, view: job.view, settings: job.settings, preview: !job.previewed });
  }

  /**
   * The quicker first run of `job` (its settings `preview`, if it has one) on its chart's quick
   * worker, started the first time; while that worker is busy, only the newest waits.
   */
  startQuick(job, preview) {
    if (!preview) return;
    const quick = this.slot(`${job.key} quick`, true);
    quick.queued = { job, preview };
    if (quick.running) return;
    const worker = quick.worker ?? this.spawn(quick);
    if (!worker) return;
    quick.running = quick.queued.job;
    quick.queued = null;
    worker.postMessage({ id: job.id, view: job.view, settings: preview, preview: false });
  }

  /** The quick worker answered: a first picture, if its request is still the chart's newest. */
  answeredQuick(quick, data) {
    const job = quick.running;
    quick.running = null;
    if (quick.queued) this.startQuick(quick.queued.job, quick.queued.preview);
    else this.park(quick);
    if (!job || data.id !== job.id || data.error) return;
    const slot = this.slot(job.key);
    const newest = slot.queued ?? slot.running;
    if (job.cancelled || job.finished || newest !== job) return;
    job.previewed = true;
    job.onResult(data.computed, true);
  }

  /** Stops the slot's worker (its computation is no longer wanted) and starts a fresh one. */
  replace(slot) {
    slot.worker?.terminate();
    slot.worker = null;
    slot.running = null;
  }

  cancel(slot, job) {
    job.cancelled = true;
    if (slot.queued === job) slot.queued = null;
    if (slot.running === job) {
      this.replace(slot);
      this.start(slot);
    }
  }

  answered(slot, data) {
    const job = slot.running;
    if (!job || data.id !== job.id) return;
    if (!data.partial) {
      slot.running = null;
      job.finished = true;
      this.start(slot);
      this.park(slot);
    }
    // A newer request is waiting: this answer is no longer wanted.
    if (job.cancelled || slot.queued || (slot.running && slot.running !== job)) return;
    if (data.error) job.onError(data.error);
    else job.onResult(data.computed, Boolean(data.partial));
  }

  /** Runs `job` on this thread: `now`, before the next paint (once the caller has taken its
   * handle), or in the next task, so that the page can show that it is computing first. */
  runInline(job, now = false) {
    (now ? queueMicrotask : (run) => setTimeout(run, 0))(() => {
      if (job.cancelled) return;
      let computed;
      try {
        computed = this.inline(job.view, job.settings);
      } catch (error) {
        job.onError(plainError(error));
        return;
      }
      // Outside the try: a failure while drawing the result is the caller's, not a second answer.
      job.onResult(computed, false);
    });
  }
}
