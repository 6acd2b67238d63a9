// The page's worker: the costly step of one chart (sampling, herds, storms) off the main thread.
// It answers each { id, view, settings } with { id, computed } or { id, error }, and may send
// { id, computed, partial: true } first when a smaller run gives a picture sooner.
import init, { StormMemo, computeView, previewSettings } from './pkg/backoff_lab.js';

const ready = init();
let memo;

self.onmessage = async ({ data }) => {
  await ready;
  memo ??= new StormMemo();
  const { id, view, settings } = data;
  try {
    const preview = previewSettings(view, settings);
    if (preview) self.postMessage({ id, computed: computeView(view, preview, memo), partial: true });
    self.postMessage({ id, computed: computeView(view, settings, memo) });
  } catch (error) {
    self.postMessage({ id, error: { message: error?.message ?? String(error), setting: error?.setting ?? null } });
  }
};
