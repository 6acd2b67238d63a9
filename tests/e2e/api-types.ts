// Every export of the wasm package, used as a program would, type-checked against the
// generated declarations (www/pkg/backoff_lab.d.ts) by `npm run types`: a change to a Rust type
// or a signature that breaks a caller fails the test command. It is compiled, never run.
import init, {
  StormMemo,
  arithmeticView,
  chartSvg,
  computeSurvivalRows,
  computeView,
  computesInline,
  rendersAfterPaint,
  decodeState,
  drawDistribution,
  drawHerd,
  drawInstant,
  drawStaleness,
  drawStorm,
  drawTimeline,
  drawView,
  elementState,
  embedSnippet,
  encodeState,
  exportSchedule,
  fileStem,
  formatDuration,
  inactiveControls,
  herd,
  jitter,
  newSeed,
  pageConfig,
  pageSchedule,
  pageStaleness,
  parseDuration,
  presets,
  previewSettings,
  sampledMeanGiveUp,
  schedule,
  settingEdited,
  sliderPosition,
  sliderText,
  staleness,
  storm,
  stormSvg,
  survival,
  survivalAxesErrors,
  survivalExport,
  survivalJobs,
  viewCsv,
  viewSvg,
} from '../../www/pkg/backoff_lab.js';
import type {
  ArithmeticReport,
  BackoffError,
  ChartOptions,
  Computed,
  DecodedState,
  Drawn,
  ElementState,
  NumberTable,
  PageError,
  Herd,
  HerdSummary,
  GiveUpParams,
  HerdParams,
  JitterReport,
  PageConfig,
  PresetInfo,
  ScheduleParams,
  ScheduleReport,
  Settings,
  StalenessParams,
  StalenessReport,
  StormDrawn,
  StormParams,
  StormReport,
  StormSeries,
  SurvivalMap,
  SurvivalRow,
  View,
} from '../../www/pkg/backoff_lab.js';

export async function everyExport(): Promise<string[]> {
  await init();
  const policy: ScheduleParams = { base: '30s', multiplier: 3, cap: '3h', attempts: 14 };
  const jittered: GiveUpParams = { ...policy, mode: 'full', seed: 42, samples: 20000 };
  const crowded: HerdParams = { ...policy, mode: 'full', seed: 42, deliveries: 1000 };
  // @ts-expect-error: a schedule has no jitter (`schedule` refuses `mode` when it runs, too).
  const unread: ScheduleParams = { ...policy, mode: 'full' };
  // @ts-expect-error: a herd draws no give-up times (`herd` refuses `samples`).
  herd({ ...crowded, samples: 10 });
  // @ts-expect-error: a misspelt mode (refused when it runs, too).
  jitter({ ...jittered, mode: 'ful' });
  // @ts-expect-error: no such engine.
  storm({ engine: 'exact' });
  // @ts-expect-error: no such policy.
  storm({ policy: 'linear' });
  const options: ChartOptions = { dark: false, scale: 2, logScale: true };
  const report: ScheduleReport = schedule(policy);
  const last: number = report.rows[report.rows.length - 1].elapsed_s;
  const spread: JitterReport = jitter(jittered);
  const p95: number = spread.percentiles.p95 + spread.sampled.percentiles.p95;
  const crowd: Herd = herd(crowded);
  const mean: number = sampledMeanGiveUp(jittered) + crowd.first_retry.peak_per_s;
  const scenario: StormParams = { ...policy, mode: 'full', seed: 42, arrivals: '600/min', budget: '10%', engine: 'fluid' };
  const storms: StormReport = storm(scenario);
  const drained: number | null = storms.summary.drained_at_s;
  const arithmetic: ArithmeticReport = arithmeticView({ interval: 30, outage: '10m', policy: 'fixed' });
  const series: StormSeries[] = [{ label: 'yours', params: scenario }];
  const drawn: StormDrawn[] = drawStorm('storm', series, options);
  const timeline: ScheduleReport = drawTimeline('timeline', policy, options, undefined);
  const distribution: JitterReport = drawDistribution('distribution', jittered, undefined);
  const herdDrawn: HerdSummary = drawHerd('herd', crowded, options);
  const svgs: string[] = [
    chartSvg('timeline', policy, options, 900, 320, policy),
    chartSvg('herd', crowded, options, 900, 320),
    stormSvg(series, undefined, 900, 420),
  ];
  const all: PresetInfo[] = presets();
  const csv: string = exportSchedule(all[0].params, 'csv') + jitter({ ...all[1].params, ...all[1].jitter }).mode;
  const seconds: number = parseDuration('base', '4m30s');
  const text: string = formatDuration(newSeed());

  const decoded: DecodedState = decodeState('#preset=svix');
  const settings: Settings = settingEdited(decoded.settings, 'preset');
  const config: PageConfig = pageConfig();
  const thumb: number | undefined = sliderPosition('budget', { ...settings, budget: '10%' });
  const view: View = config.views[0].name;
  const memo = new StormMemo();
  const preview: Settings | null = previewSettings('distribution', settings);
  const computed: Computed = computeView(view, preview ?? settings, memo);
  const cheap: boolean = computesInline(view, settings);
  const afterPaint: boolean = rendersAfterPaint(settings);
  const greyed: string[] = inactiveControls(settings).map(({ control, note }) => `${control}: ${note}`);
  const page: Drawn = drawView('timeline', view, settings, computed, options);
  const instant: Drawn | null = drawInstant('staleness', 'staleness', settings, options);
  const caption: string = page.caption + (page.compared ?? '');
  const svg: string = viewSvg(view, settings, computed, undefined, 900, 320);
  const link: string = encodeState(settings) + embedSnippet(settings, 'storm', 'https://example.com/embed.html');
  const table: string = pageSchedule(settings, 'markdown');
  const question: StalenessParams = { ...jittered, tolerance: '6h', maxLag: '1h', outage: '4h' };
  const stale: StalenessReport = staleness(question);
  const lag: number | null = stale.outages[0].first_event.lag_s;
  const advice: string[] = stale.suggestion?.findings ?? (stale.suggestion_refused ? [stale.suggestion_refused] : []);
  const staleDrawn: StalenessReport = drawStaleness('staleness', question, options, 'svix');
  const staleCsv: string = pageStaleness(settings, 'csv');
  const element: ElementState = elementState([['view', 'storm'], ['class', 'wide'], ['multiplier', 'NaN']]);
  const unused: string = element.errors.map((e) => `${e.attribute}: ${e.message}`).join('\n');
  const numbers: NumberTable = page.table;
  const numbersCsv: string = viewCsv(view, element.settings, computed, numbers) + element.settings.view + unused;
  const saveAs: string = fileStem(view, settings) + fileStem('schedule', element.settings) + sliderText('budget', 0);
  const map: SurvivalMap = survival(scenario, { steps: '6x4', outages: '1m..2h' });
  const cliff: number | null = map.series[0].boundary[0];
  const jobs: Array<[number, number[]]> = survivalJobs(settings, 2);
  const row: SurvivalRow = computeSurvivalRows(settings, jobs[0][0], jobs[0][1])[0];
  const mapCsv: string = survivalExport(settings, { view: 'survival', rows: [row] }, 'csv');
  const axisErrors: PageError[] = survivalAxesErrors(settings);
  const axisSaid: string = axisErrors.map((e) => `${e.setting ?? ''}: ${e.message}`).join('\n');
  const cellOutcome: string = row.cells[0].outcome + map.caption + mapCsv + axisSaid + String(cliff ?? 0);
  memo.free();
  try {
    schedule({ base: 'abc', multiplier: 3, cap: '3h', attempts: 14 });
  } catch (error) {
    const field: string | undefined = (error as BackoffError).field;
    return [String(field)];
  }
  return [String(last + p95 + mean + (drained ?? 0) + arithmetic.summary.peak_multiple + seconds),
    text, csv, caption, svg, link, table, staleCsv, numbersCsv, cellOutcome, ...advice, ...svgs, String((lag ?? 0) + staleDrawn.give_up_s), String(drawn.length + timeline.attempts + distribution.attempts + herdDrawn.deliveries)];
}

// README's "JavaScript API" examples as written there (a doc example that no longer type-checks
// fails the test command).
export function readmeExamples(): number {
  const report = schedule({ base: '30s', multiplier: 3, cap: '3h', giveUp: '24h' });
  const spread = jitter({ base: 30, multiplier: 3, cap: 10800, attempts: 14, seed: 42, samples: 100000 });
  const day = storm({ base: '30s', traffic: '24h', outage: '2h', engine: 'fluid' });
  drawTimeline('my-canvas', { base: '30s', multiplier: 3, cap: '3h', attempts: 14 },
               { scale: devicePixelRatio, logScale: true });
  const stale = staleness({ base: '30s', multiplier: 3, cap: '3h', attempts: 14, mode: 'none', tolerance: '6h', outage: '4h' });
  const map = survival({ policy: 'fixed', interval: '30s', giveUp: '2h' }, { outages: '1m..2h', steps: '6x4' });
  const listed = schedule({ gaps: ['5s', '5min'], attempts: 3 });
  return report.attempts + spread.expected_give_up_s + day.summary.exhausted + map.outages_s.length
    + stale.outages.length + listed.attempts + formatDuration(90).length + parseDuration('giveUp', '24h');
}
