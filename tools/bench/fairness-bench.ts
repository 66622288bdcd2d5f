// A fair share of the provider start limit, measured end to end: at the specified initial limit
// (6 starts a minute), agent A submits a batch of 30 photos and agent B one photo a second later,
// through the api's tRPC as the dashboard does; the worker as the image runs it buys them from the
// provider simulator. Figures, each against what the limit itself allows in the same run:
//   - B's photo ready, seconds after its submit, over one start interval + 5 s (target <= 1.00);
//   - how many of the run's start slots later than first come (A in the first 30) A's last photo
//     started (target <= 1): fairness may cost the batch one slot, B's;
//   - the busiest 60 s window of the provider's creation times, over the limit (target <= 1.00).
//
//   node --import tsx tools/bench/fairness-bench.ts [--batch 30] [--limit 6]
import { parseArgs } from 'node:util';
import { setTimeout as sleep } from 'node:timers/promises';
import { createOriginalImage, createProperty } from '@staging/db/testing/factories';
import { startIntervalMs } from '@staging/domain/start-line';
import { slidingWindowPeak } from '@staging/domain/sliding-window';
import { callProcedure, createSignedInUser } from '@staging/trpc/testing/test-server';
import { printFigure } from './figures';
import { noiseImage, openStagingBenchStack } from './staging-stack';
import { present } from './present';

const { values } = parseArgs({ options: { batch: { type: 'string', default: '30' }, limit: { type: 'string', default: '6' } } });
const batchSize = Number(values.batch);
const limit = Number(values.limit);
const WINDOW_MS = 60_000;
const intervalMs = startIntervalMs(limit, WINDOW_MS);
/** The simulator's prediction time, as in the e2e stack: about a second. */
const PROVIDER_DELAY_MS = 1_000;
/** How long B's photo may take beyond its turn: the prediction, the webhook and storing the result. */
const READY_ALLOWANCE_MS = 5_000;

const stack = await openStagingBenchStack({ simulator: { SIM_COMPLETION_DELAY_MS: String(PROVIDER_DELAY_MS) } });
const trpcUrl = `http://127.0.0.1:${stack.api.port}/api/trpc`;

async function agentWithPhotos(count: number, photo: Buffer) {
  const user = await createSignedInUser(stack.db);
  const property = await createProperty(stack.db, { ownerAgentId: user.id });
  const originals = [];
  for (let i = 0; i < count; i += 1) {
    const original = await createOriginalImage(stack.db, { propertyId: property.id });
    await stack.storage.putObject(original.objectKey, photo, 'image/jpeg');
    originals.push(original.id);
  }
  return { cookie: user.cookie, originals };
}

async function submit(agent: { cookie: string; originals: string[] }): Promise<{ jobIds: string[]; at: number }> {
  const at = Date.now();
  const answer = await callProcedure<{ items: { aiJobId: string | null }[] }>(
    trpcUrl,
    'mutation',
    'ai.submitStaging',
    { assignments: agent.originals.map((originalImageId) => ({ originalImageId, roomType: 'LIVING_ROOM', style: 'MODERN' })) },
    { cookie: agent.cookie },
  );
  if (!answer.ok) throw new Error(`ai.submitStaging answered ${answer.status}: ${answer.error.message}`);
  return { jobIds: answer.data.items.map((item) => item.aiJobId).filter((id): id is string => id !== null), at };
}

interface JobTimes {
  id: string;
  status: string;
  creatingAt: Date | null;
  completedAt: Date | null;
}

async function timesOf(jobIds: string[]): Promise<JobTimes[]> {
  return stack.db.$queryRaw<JobTimes[]>`
    SELECT j.id, j.status::text AS status, min(a."creatingAt") AS "creatingAt", j."completedAt"
    FROM ai_jobs j LEFT JOIN ai_provider_attempts a ON a."aiJobId" = j.id
    WHERE j.id = ANY(${jobIds}) GROUP BY j.id`;
}

try {
  const photo = await noiseImage(768, 512, 'jpeg');
  const worker = await stack.startWorker({ AI_STAGING_RATE_LIMIT_PER_MINUTE: String(limit), AI_STAGING_RATE_LIMIT_WINDOW_MS: String(WINDOW_MS) });
  const [a, b] = [await agentWithPhotos(batchSize, photo), await agentWithPhotos(1, photo)];
  const batch = await submit(a);
  await sleep(1_000);
  const single = await submit(b);
  const all = [...batch.jobIds, ...single.jobIds];
  const guardAt = Date.now() + (batchSize + 10) * intervalMs + 120_000;
  let times = await timesOf(all);
  while (times.some((job) => !['SUCCESS', 'FAILED', 'CANCELED'].includes(job.status))) {
    if (Date.now() > guardAt) throw new Error(`jobs still open long after their turn: ${times.filter((job) => job.status !== 'SUCCESS').map((job) => `${job.id} ${job.status}`).join(', ')}`);
    await sleep(500);
    times = await timesOf(all);
  }
  await worker.stop();
  const failed = times.filter((job) => job.status !== 'SUCCESS');
  if (failed.length > 0) throw new Error(`${failed.length} jobs did not succeed`);

  const byId = new Map(times.map((job) => [job.id, job]));
  // Every job succeeded, so each was created and completed.
  const startOf = (job: (typeof times)[number]) => present(job.creatingAt, `job ${job.id}'s creatingAt`).getTime();
  const jobOf = (id: string) => present(byId.get(id), `job ${id}`);
  const bJob = jobOf(present(single.jobIds[0], "B's job"));
  const bReadyMs = present(bJob.completedAt, "B's completedAt").getTime() - single.at;
  const aStarts = batch.jobIds.map((id) => startOf(jobOf(id))).sort((x, y) => x - y);
  const aFirstStart = present(aStarts[0], "A's first start");
  const aLastStart = present(aStarts.at(-1), "A's last start");
  const aSpanMs = aLastStart - aFirstStart;
  // The line only decides who takes each slot; the slots are the run's start times whoever takes
  // them. First come, A would have taken the first `batchSize` of them.
  const slots = times.map(startOf).sort((x, y) => x - y);
  const firstComeSpanMs = present(slots[batchSize - 1], `slot ${batchSize}`) - present(slots[0], 'the first slot');
  // A's delay counted in slots: how many slots later than first come A's last photo started. In
  // time the same delay also carries how late the worker ran the slot's job (a delayed job is
  // promoted some milliseconds late on a busy machine), which first come would carry as well.
  const aLastSlot = slots.indexOf(aLastStart);
  const aDelaySlots = aLastSlot - (batchSize - 1);
  // The provider's own creation times: what its limit counts.
  const simulator = (await (await fetch(`${new URL(stack.providerUrl).origin}/__sim/predictions`)).json()) as { predictions: { created_at: string }[] };
  const creations = simulator.predictions.map((prediction) => Date.parse(prediction.created_at));
  const startOrder = [...times].sort((x, y) => startOf(x) - startOf(y)).map((job) => job.id);

  console.log(`limit ${limit} a minute (one start every ${intervalMs / 1000} s); A submitted ${batchSize}, B submitted 1 a second later`);
  console.log(`B's photo: start #${startOrder.indexOf(bJob.id) + 1} of ${times.length}, ready ${(bReadyMs / 1000).toFixed(1)} s after its submit (allowed ${(intervalMs + READY_ALLOWANCE_MS) / 1000} s)`);
  console.log(`A's last photo started in slot #${aLastSlot + 1} of ${slots.length}: ${aDelaySlots} slot(s) after first come (one allowed)`);
  console.log(`A's starts span ${(aSpanMs / 1000).toFixed(1)} s; first come, the first ${batchSize} slots span ${(firstComeSpanMs / 1000).toFixed(1)} s`);
  console.log(`busiest ${WINDOW_MS / 1000} s window of creations: ${slidingWindowPeak(creations, WINDOW_MS)} (limit ${limit})`);
  printFigure({ name: "B's photo ready vs one start interval + 5 s", value: bReadyMs / (intervalMs + READY_ALLOWANCE_MS), target: 1, better: 'lower' });
  printFigure({ name: "A's last start, slots after first come vs one", value: aDelaySlots, target: 1, better: 'lower' });
  printFigure({ name: 'sliding-window peak of creations vs the limit', value: slidingWindowPeak(creations, WINDOW_MS) / limit, target: 1, better: 'lower' });
} finally {
  await stack.close();
}
process.exit(0);
