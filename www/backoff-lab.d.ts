// Types of the <backoff-lab> element's module (backoff-lab.js and backoff-lab.inline.js).
import type { NumberTable, ReportRow, StormDrawn, View } from './backoff_lab.js';

/** The `detail` of a `backoff-lab:rendered` event. */
export interface RenderedDetail {
  view: View;
  caption: string;
  table: NumberTable;
  storms: StormDrawn[];
  schedule: { rows: ReportRow[]; give_up_s: number; attempts: number } | null;
}

/** The `detail` of a `backoff-lab:error` event: the attribute (or null) and the message. */
export interface ErrorDetail {
  field: string | null;
  message: string;
}

/** `<backoff-lab>`: attributes named as the share link's keys, plus `state`, `theme`, `actions`. */
export declare class BackoffLab extends HTMLElement {}

/** Defines `<backoff-lab>`; `source` is the wasm (bytes or URL), by default the file next to the module. */
export declare function define(source?: BufferSource | URL | string): void;

declare global {
  interface HTMLElementTagNameMap {
    'backoff-lab': BackoffLab;
  }
  interface HTMLElementEventMap {
    'backoff-lab:rendered': CustomEvent<RenderedDetail>;
    'backoff-lab:error': CustomEvent<ErrorDetail>;
  }
}
