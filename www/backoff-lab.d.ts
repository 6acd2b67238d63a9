// Types of the <backoff-lab> element's module (backoff-lab.js and backoff-lab.inline.js).
import type { NumberTable, ScheduleReport, StormDrawn, View } from './backoff_lab.js';

/** The `detail` of a `backoff-lab:rendered` event. */
export interface RenderedDetail {
  view: View;
  caption: string;
  /** The chart's numbers; of a schedule of more than 400 attempts, the first 399 rows, a row
   * saying how many are left out, and the last (the CSV download has every one). */
  table: NumberTable;
  storms: StormDrawn[];
  /** The timeline's schedule report, as `schedule()` returns it, but that `rows` holds at most
   * the first 399 and the last (`attempts` counts them all); `null` for another chart. */
  schedule: ScheduleReport | null;
}

/** The `detail` of a `backoff-lab:error` event: the attribute (or the CSS property, `--backoff-lab-background`; or null) and the message. */
export interface ErrorDetail {
  field: string | null;
  message: string;
}

/** What a property of `<backoff-lab>` takes: the attribute's text (a number or boolean is written
 * as text); `null` or `undefined` removes the attribute. */
export type AttributeValue = string | number | boolean | null | undefined;

/**
 * `<backoff-lab>`: attributes named as the share link's keys, plus `state`, `theme`, `actions`.
 * The module defines the element when it is imported; it exports the class (for `instanceof`)
 * and nothing else. Each attribute is also a property, named in camelCase (`giveUp` for
 * `give-up`), that reads the attribute (`null` when absent) and sets it. A property set before
 * the wasm has loaded (or before the module defined the element) is taken over when it has.
 */
export declare class BackoffLab extends HTMLElement {
  get preset(): string | null; set preset(value: AttributeValue);
  get base(): string | null; set base(value: AttributeValue);
  get multiplier(): string | null; set multiplier(value: AttributeValue);
  get cap(): string | null; set cap(value: AttributeValue);
  get gaps(): string | null; set gaps(value: AttributeValue);
  get thenEvery(): string | null; set thenEvery(value: AttributeValue);
  get stop(): string | null; set stop(value: AttributeValue);
  get attempts(): string | null; set attempts(value: AttributeValue);
  get giveUp(): string | null; set giveUp(value: AttributeValue);
  get log(): string | null; set log(value: AttributeValue);
  get compare(): string | null; set compare(value: AttributeValue);
  get mode(): string | null; set mode(value: AttributeValue);
  get factor(): string | null; set factor(value: AttributeValue);
  get seed(): string | null; set seed(value: AttributeValue);
  get samples(): string | null; set samples(value: AttributeValue);
  get deliveries(): string | null; set deliveries(value: AttributeValue);
  get deadline(): string | null; set deadline(value: AttributeValue);
  get arrivals(): string | null; set arrivals(value: AttributeValue);
  get capacity(): string | null; set capacity(value: AttributeValue);
  get outage(): string | null; set outage(value: AttributeValue);
  get traffic(): string | null; set traffic(value: AttributeValue);
  get timeout(): string | null; set timeout(value: AttributeValue);
  get budget(): string | null; set budget(value: AttributeValue);
  get budgetWindow(): string | null; set budgetWindow(value: AttributeValue);
  get budgetFloor(): string | null; set budgetFloor(value: AttributeValue);
  get rateLimit(): string | null; set rateLimit(value: AttributeValue);
  get retryAfter(): string | null; set retryAfter(value: AttributeValue);
  get pause(): string | null; set pause(value: AttributeValue);
  get resumeRate(): string | null; set resumeRate(value: AttributeValue);
  get retryQuota(): string | null; set retryQuota(value: AttributeValue);
  get retryQuotaTokens(): string | null; set retryQuotaTokens(value: AttributeValue);
  get retryQuotaRatio(): string | null; set retryQuotaRatio(value: AttributeValue);
  get breakerFailures(): string | null; set breakerFailures(value: AttributeValue);
  get breakerShare(): string | null; set breakerShare(value: AttributeValue);
  get breakerWindow(): string | null; set breakerWindow(value: AttributeValue);
  get breakerMinAttempts(): string | null; set breakerMinAttempts(value: AttributeValue);
  get breakerCooldown(): string | null; set breakerCooldown(value: AttributeValue);
  get breakerProbes(): string | null; set breakerProbes(value: AttributeValue);
  get stormCompare(): string | null; set stormCompare(value: AttributeValue);
  get engine(): string | null; set engine(value: AttributeValue);
  get tolerance(): string | null; set tolerance(value: AttributeValue);
  get maxLag(): string | null; set maxLag(value: AttributeValue);
  get readOutage(): string | null; set readOutage(value: AttributeValue);
  get outages(): string | null; set outages(value: AttributeValue);
  get headroom(): string | null; set headroom(value: AttributeValue);
  get steps(): string | null; set steps(value: AttributeValue);
  get section(): string | null; set section(value: AttributeValue);
  get view(): string | null; set view(value: AttributeValue);
  get state(): string | null; set state(value: AttributeValue);
  get theme(): string | null; set theme(value: AttributeValue);
  /** Whether the PNG, SVG and CSV download buttons are shown: `false` (or `null`) removes the attribute. */
  get actions(): boolean; set actions(value: boolean | string | null | undefined);
}

declare global {
  interface HTMLElementTagNameMap {
    'backoff-lab': BackoffLab;
  }
  interface HTMLElementEventMap {
    'backoff-lab:rendered': CustomEvent<RenderedDetail>;
    'backoff-lab:error': CustomEvent<ErrorDetail>;
  }
  // The events bubble and are composed: a host page listens on the document or the window.
  interface DocumentEventMap {
    'backoff-lab:rendered': CustomEvent<RenderedDetail>;
    'backoff-lab:error': CustomEvent<ErrorDetail>;
  }
  interface WindowEventMap {
    'backoff-lab:rendered': CustomEvent<RenderedDetail>;
    'backoff-lab:error': CustomEvent<ErrorDetail>;
  }
}
