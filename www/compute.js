// The charts' costly steps, run in workers (one per chart, so that a storm does not wait for a
// histogram). A newer request for a chart supersedes the older one at once: a result that is no
// longer wanted is never delivered, and a worker still busy with one after a moment is stopped
// and replaced. Shared by the explorer and the embed page.

/** How long a superseded computation may finish before its worker is replaced, ms. */
const REPLACE_AFTER_MS = 150;

export class Computer {
  /**
   * `makeWorker()` returns a new Worker running worker.js; `inline(view, settings)` computes on
   * the main thread instead when no worker can be made (then the page says so).
   */
  constructor(makeWorker, inline) {
    this.makeWorker = makeWorker;
    this.inline = inline;
    this.slots = new Map();
    this.nextId = 1;
    this.workersWork = true;
  }

  slot(view) {
    let slot = this.slots.get(view);
    if (!slot) {
      slot = { worker: null, running: null, queued: null };
      this.slots.set(view, slot);
    }
    return slot;
  }

  spawn(slot) {
    let worker;
    try {
      worker = this.makeWorker();
    } catch {
      this.workersWork = false;
      return null;
    }
    worker.onmessage = ({ data }) => this.answered(slot, data);
    worker.onerror = (event) => {
      event.preventDefault();
      this.answered(slot, { id: slot.running?.id, error: { message: event.message || 'the worker failed', setting: null } });
    };
    slot.worker = worker;
    return worker;
  }

  /**
   * Computes `view` for `settings`. `onResult(computed, partial)` may be called with a partial
   * result first; `onError(error)` with `{ message, setting }`. Returns a handle whose `cancel()`
   * drops the request (and stops its worker if it is running).
   */
  request(view, settings, { onResult, onError }) {
    const job = { id: this.nextId++, view, settings, onResult, onError, started: 0, cancelled: false };
    if (!this.workersWork) {
      this.runInline(job);
      return { cancel: () => { job.cancelled = true; } };
    }
    const slot = this.slot(view);
    slot.queued = job;
    if (slot.running && performance.now() - slot.running.started > REPLACE_AFTER_MS) this.replace(slot);
    if (!slot.running) this.start(slot);
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
    worker.postMessage({ id: job.id, view: job.view, settings: job.settings });
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
      this.start(slot);
    }
    // A newer request is waiting: this answer is no longer wanted.
    if (job.cancelled || slot.queued || (slot.running && slot.running !== job)) return;
    if (data.error) job.onError(data.error);
    else job.onResult(data.computed, Boolean(data.partial));
  }

  runInline(job) {
    // The next task, so that the page can show that it is computing first.
    setTimeout(() => {
      if (job.cancelled) return;
      try {
        const computed = this.inline(job.view, job.settings);
        if (!job.cancelled) job.onResult(computed, false);
      } catch (error) {
        if (!job.cancelled) job.onError({ message: error?.message ?? String(error), setting: error?.setting ?? null });
      }
    }, 0);
  }
}
