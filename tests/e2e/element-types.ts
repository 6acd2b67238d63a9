// Type-checks the <backoff-lab> element's declarations as the npm package ships them
// (target/package, built by scripts/build-package.sh): a host page's script that imports the
// module, sets the element's properties and listens to its events. Checked by `npm run types`,
// never run; check-exports.mjs checks that what the declarations export is what the module
// exports, and that they type a property for every setting.
import { BackoffLab, type ErrorDetail, type RenderedDetail } from '../../target/package/backoff-lab.js';

export function host(): void {
  const element = document.createElement('backoff-lab');
  const typed: BackoffLab = element;
  console.log(typed instanceof BackoffLab);
  element.view = 'storm';
  element.giveUp = '2 h';
  element.multiplier = 2;
  element.log = false;
  element.theme = null;
  element.actions = false;
  element.actions = true;
  const giveUp: string | null = element.giveUp;
  const shown: boolean = element.actions;
  console.log(giveUp, shown);
  // @ts-expect-error: properties are camelCase (`giveUp` for `give-up`)
  element.giveup = '2 h';
  // @ts-expect-error: a setting's property reads as text, not a number
  const attempts: number = element.attempts;
  console.log(attempts);
  element.addEventListener('backoff-lab:rendered', (event) => {
    const detail: RenderedDetail = event.detail;
    const delivered: number = detail.storms[0]?.summary.delivered ?? 0;
    const rows: number = detail.table.rows.length + (detail.schedule?.rows.length ?? 0);
    // The whole schedule report, typed as `schedule()`'s.
    const capped: number | null = detail.schedule?.first_capped_attempt ?? null;
    console.log(detail.caption, delivered, rows, capped);
  });
  element.addEventListener('backoff-lab:error', (event) => {
    const detail: ErrorDetail = event.detail;
    console.warn(detail.field ?? 'state', detail.message);
  });
  // The events bubble out of the shadow root: a host listens on the document or the window.
  document.addEventListener('backoff-lab:rendered', (event) => console.log(event.detail.caption));
  window.addEventListener('backoff-lab:error', (event) => console.warn(event.detail.message));
  document.body.append(element);
}
