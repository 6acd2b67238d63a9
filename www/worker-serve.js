// What a worker of the wasm core does (the page's worker.js, and the <backoff-lab> element's own
// module run as a worker): the costly step of one chart off the main thread.
// A first message { module } may hand it the page's compiled wasm module; without one it loads
// the wasm itself (`initArgs()`: the arguments of the glue's init, by default its own file).
// It says { started: true } first, once its script runs. It answers each { id, view, settings }
// with { id, computed } or { id, error }, and may send { id, computed, partial: true } first
// when a smaller run gives a picture sooner (unless asked with preview: false). The survival
// map's pool (row-pool.js) sends { id, rows: [series, headrooms], settings } instead, answered
// with { id, rows } or { id, error }.
import init, { StormMemo, computeSurvivalRows, computeView, previewSettings } from './pkg/backoff_lab.js';
import { plainError } from './compute.js';

/** Answers the messages of the thread that started this worker. */
export function serve(initArgs = () => undefined) {
  let ready = null;
  let memo;
  const failed = (id, error) => {
    self.postMessage({ id, error: plainError(error) });
  };
  self.onmessage = async ({ data }) => {
    if (data.module) {
      ready ??= init({ module_or_path: data.module });
      return;
    }
    ready ??= init(initArgs());
    try {
      await ready;
    } catch (error) {
      failed(data.id, error);
      return;
    }
    const { id, view, settings, rows, preview: wanted = true } = data;
    if (rows) {
      try {
        self.postMessage({ id, rows: computeSurvivalRows(settings, rows[0], rows[1]) });
      } catch (error) {
        failed(id, error);
      }
      return;
    }
    memo ??= new StormMemo();
    // Results are packed bytes (a Uint8Array of their own): moved to the page, not copied.
    try {
      const preview = wanted ? previewSettings(view, settings) : null;
      if (preview) {
        const computed = computeView(view, preview, memo);
        self.postMessage({ id, computed, partial: true }, [computed.buffer]);
      }
    } catch {
      // The quicker run's refusal would quote its own smaller counts: the full run's says what
      // was asked for.
    }
    try {
      const computed = computeView(view, settings, memo);
      self.postMessage({ id, computed }, [computed.buffer]);
    } catch (error) {
      failed(id, error);
    }
  };
  self.postMessage({ started: true });
}
