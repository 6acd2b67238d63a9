// Type-checks the <backoff-lab> element's declarations as the npm package ships them
// (target/package, built by scripts/build-package.sh): a host page's script that listens to the
// element's events and sets its properties. Checked by `npm run types`, never run.
import { define, type BackoffLab, type ErrorDetail, type RenderedDetail } from '../../target/package/backoff-lab.js';

export function host(): void {
  define();
  const element: BackoffLab = document.createElement('backoff-lab');
  element.setAttribute('view', 'storm');
  element.addEventListener('backoff-lab:rendered', (event) => {
    const detail: RenderedDetail = event.detail;
    const delivered: number = detail.storms[0]?.summary.delivered ?? 0;
    const rows: number = detail.table.rows.length + (detail.schedule?.rows.length ?? 0);
    console.log(detail.caption, delivered, rows);
  });
  element.addEventListener('backoff-lab:error', (event) => {
    const detail: ErrorDetail = event.detail;
    console.warn(detail.field ?? 'state', detail.message);
  });
  document.body.append(element);
}
