// The survival map's scheduler (www/row-pool.js) with stand-in workers, in Node: how many
// workers several maps keep busy together, what happens when a worker's script never runs, and
// what a stopped map leaves behind. The real workers are covered by survival.test.mjs and
// element.test.mjs.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { RowPool } from '../../www/row-pool.js';

/** A worker that records its jobs and answers only when told to. */
class StandInWorker {
  constructor() {
    this.jobs = [];
    this.terminated = false;
  }

  postMessage(message) {
    if (message.rows) this.jobs.push(message);
  }

  terminate() {
    this.terminated = true;
  }

  /** Answers its oldest job with one row per headroom. */
  answer() {
    const { id, rows: [series, headrooms] } = this.jobs.shift();
    this.onmessage({ data: { id, rows: headrooms.map((headroom) => ({ series, headroom })) } });
  }

  /** A refusal of its job (its wasm may have trapped). */
  fail() {
    const { id } = this.jobs.shift();
    this.onmessage({ data: { id, error: { message: 'unreachable', setting: null } } });
  }

  /** Its script was refused: an error before any message. */
  refuse() {
    this.onerror({ preventDefault() {}, message: '' });
  }
}

// A map of 2 series × 3 headrooms, in one piece per row (as the core cuts it for this thread)
// or in pieces of 3 rows for workers.
const jobsOf = (_settings, workers) => (workers === 0
  ? [0, 1].flatMap((series) => [0, 1, 2].map((headroom) => [series, [headroom]]))
  : [[0, [0, 1, 2]], [1, [0, 1, 2]]]);
const rowsOf = (_settings, series, headrooms) => headrooms.map((headroom) => ({ series, headroom, here: true }));

function pool(options = {}) {
  const workers = [];
  const rows = new RowPool({
    jobsOf,
    rowsOf,
    makeWorker: () => {
      const worker = new StandInWorker();
      workers.push(worker);
      return worker;
    },
    size: 2,
    ...options,
  });
  return { rows, workers };
}

/** Requests a map; resolves with its final result. */
function request(rows) {
  let partials = 0;
  const done = new Promise((resolve, reject) => {
    rows.request('survival', {}, {
      onResult: (computed, partial) => (partial ? (partials += 1) : resolve({ computed, partials })),
      onError: reject,
    });
  });
  return done;
}

const busyWorkers = (workers) => workers.filter((worker) => worker.jobs.length > 0 && !worker.terminated).length;

test('maps sharing a count of busy workers take a second worker only below its limit', async () => {
  const busy = { count: 0, limit: 2 };
  const first = pool({ busy });
  const second = pool({ busy });
  const third = pool({ busy });
  const results = [first, second, third].map(({ rows }) => request(rows));
  // The first takes two workers, up to the limit; the others one each, so that none waits.
  assert.deepEqual([first, second, third].map(({ workers }) => busyWorkers(workers)), [2, 1, 1]);
  assert.equal(busy.count, 4);
  for (const { workers } of [first, second, third]) {
    while (workers.some((worker) => worker.jobs.length > 0)) workers.find((worker) => worker.jobs.length > 0).answer();
  }
  for (const result of results) {
    const { computed } = await result;
    assert.equal(computed.rows.length, 6, 'every row of the map');
  }
  assert.equal(busy.count, 0, 'no worker counted busy once the maps are done');
});

test('a worker whose script never runs hands the whole map to this thread, and says so', async () => {
  let told = 0;
  const { rows, workers } = pool({ onRefused: () => { told += 1; } });
  const result = request(rows);
  assert.equal(workers.length, 2);
  workers[0].refuse();
  assert.ok(workers.every((worker) => worker.terminated), 'the other worker is stopped too');
  assert.equal(told, 1, 'the others sharing the workers are told once');
  const { computed } = await result;
  assert.equal(computed.rows.length, 6);
  assert.ok(computed.rows.every((row) => row.here), 'every row computed on this thread');
  // The next map does not try workers again.
  const next = await request(rows);
  assert.equal(workers.length, 2);
  assert.equal(next.computed.rows.length, 6);
});

test('a stopped map frees its workers, and a late answer from one is dropped', async () => {
  const busy = { count: 0, limit: 8 };
  const { rows, workers } = pool({ busy });
  let answered = false;
  rows.request('survival', {}, { onResult: () => { answered = true; }, onError: () => { answered = true; } });
  const [worker] = workers;
  rows.stop();
  assert.ok(workers.every((w) => w.terminated));
  assert.equal(busy.count, 0);
  worker.answer();
  await new Promise((resolve) => setTimeout(resolve, 100));
  assert.equal(answered, false);
  assert.equal(busy.count, 0);
});

test('a worker that answered with an error is stopped, not handed back to the pool', async () => {
  const given = [];
  const idle = { take: () => given.pop(), give: (worker) => given.push(worker) };
  const busy = { count: 0, limit: 8 };
  const { rows, workers } = pool({ idle, busy });
  const failed = new Promise((resolve) => {
    rows.request('survival', {}, { onResult: () => resolve('a result'), onError: resolve });
  });
  workers[0].fail();
  assert.equal((await failed).message, 'unreachable');
  assert.ok(workers.every((worker) => worker.terminated), 'the failed one and the other');
  assert.equal(given.length, 0);
  assert.equal(busy.count, 0);
});

test('an idle worker goes back to the pool it came from, and is taken from it again', async () => {
  const given = [];
  const idle = { take: () => given.pop(), give: (worker) => given.push(worker) };
  const { rows, workers } = pool({ idle });
  const result = request(rows);
  workers[0].answer();
  workers[1].answer();
  await result;
  assert.deepEqual(given.length, 2, 'both workers idle in the shared pool');
  const again = request(rows);
  assert.equal(workers.length, 2, 'no new worker: the pooled ones are taken');
  assert.equal(given.length, 0);
  workers[0].answer();
  workers[1].answer();
  assert.equal((await again).computed.rows.length, 6);
});
