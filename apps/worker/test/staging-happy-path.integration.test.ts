import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { hashUserId } from '@staging/provider/user-hash';
import { stagingWebhookUrl } from '@staging/provider/webhook-url';
import { startTestStack, TEST_SIGNING_SECRET, TEST_TOKEN } from './support/test-stack';
import type { TestStack } from './support/test-stack';

let stack: TestStack;

beforeAll(async () => {
  stack = await startTestStack();
});

afterAll(async () => {
  await stack.close();
});

describe('staging happy path', () => {
  it('submits, buys one prediction, stores the output and finalizes one private PENDING_REVIEW image', async () => {
    const worker = await stack.startWorker();
    const seeded = await stack.seedJob();
    await stack.waitForStatus(seeded.jobId, ['SUCCESS', 'FAILED', 'CANCELED']);

    const job = await stack.db.aiJob.findUniqueOrThrow({
      where: { id: seeded.jobId },
      include: { staging: true, attempts: true },
    });
    expect(job.status).toBe('SUCCESS');
    expect(job.completedAt).not.toBeNull();
    expect(job.startedAt).not.toBeNull();
    expect(job.heartbeatAt).not.toBeNull();
    expect(job.attempts).toHaveLength(1);
    const [attempt] = job.attempts;
    expect(attempt).toMatchObject({
      attemptNumber: 1,
      status: 'SUCCEEDED',
      providerStatus: 'succeeded',
      costMicrousd: 42_000,
      costKind: 'estimate',
      pricingVersion: 'test-2026-11',
      outputFormat: 'jpeg',
      outputWidth: 1536,
      outputHeight: 1024,
    });
    expect(attempt!.providerPredictionId).toEqual(expect.any(String));

    const images = await stack.db.propertyImage.findMany({ where: { aiJobId: seeded.jobId } });
    expect(images).toHaveLength(1);
    const image = images[0]!;
    expect(image).toMatchObject({
      propertyId: seeded.propertyId,
      isStyled: true,
      isMain: false,
      reviewStatus: 'PENDING_REVIEW',
      styledFromId: seeded.originalImageId,
      canonicalStyle: 'MODERN',
      roomType: 'LIVING_ROOM',
      providerPredictionId: attempt!.providerPredictionId,
      contentType: 'image/jpeg',
      width: 1536,
      height: 1024,
      outputFormat: 'jpeg',
      outputWidth: 1536,
      outputHeight: 1024,
    });
    expect(job.staging?.resultImageId).toBe(image.id);
    expect(image.objectKey).toBe(`staged/${seeded.propertyId}/${seeded.jobId}/1.jpg`);
    expect(image.providerInputs).toMatchObject({
      quality: 'medium',
      aspectRatio: '3:2',
      outputFormat: 'jpeg',
      outputCompression: 92,
    });

    // The stored object is exactly what the row describes.
    const stored = await stack.storage.getObject(image.objectKey);
    expect(stored.length).toBe(image.bytes);
    expect(stored.length).toBe(image.outputBytes);
    expect(createHash('sha256').update(stored).digest('hex')).toBe(image.outputChecksum);

    // Exactly one purchase, with the contract of the create call.
    const purchases = await stack.purchasesFor(seeded.jobId);
    expect(purchases).toHaveLength(1);
    expect((await stack.predictions()).length).toBe(1);
    const [bought] = purchases;
    expect(bought!.id).toBe(attempt!.providerPredictionId);
    expect(bought!.webhook).toBe(stagingWebhookUrl(stack.receiver.origin, attempt!.id));
    const config = stack.config();
    expect(bought!.input).toMatchObject({
      prompt: job.staging!.prompt,
      aspect_ratio: '3:2',
      quality: 'medium',
      output_format: 'jpeg',
      output_compression: 92,
      user_id: hashUserId(seeded.userId, config.userHashSecret),
    });
    expect(bought!.input['input_images']).toEqual([expect.stringContaining('X-Amz-Signature=')]);

    // Events in order, one line each, all carrying the job ID. The worker's queue repair may also
    // name the job (on a busy machine its boot pass can see the row before the message lands); that
    // is the repair loop's own event, not a step of the pipeline, and buys nothing (one purchase above).
    const mine = worker.log
      .lines()
      .filter(
        (line) =>
          line['jobId'] === seeded.jobId &&
          typeof line['event'] === 'string' &&
          line['event'] !== 'ai_room_staging.queue_repaired',
      );
    const names = mine.map((line) => line['event']);
    expect(names).toEqual([
      'worker_started',
      'prediction_created',
      'provider_terminal',
      'output_validated',
      'completed',
    ]);
    const byName = Object.fromEntries(mine.map((line) => [line['event'], line]));
    expect(byName['worker_started']).toMatchObject({
      queueAttempt: expect.any(Number),
      queueWaitMs: expect.any(Number),
    });
    expect(byName['prediction_created']).toMatchObject({
      attemptId: attempt!.id,
      attemptNumber: 1,
      predictionId: bought!.id,
      source: 'create',
    });
    expect(byName['provider_terminal']).toMatchObject({
      providerStatus: 'succeeded',
      predictionId: bought!.id,
    });
    expect(byName['output_validated']).toMatchObject({
      bytes: stored.length,
      format: 'jpeg',
      width: 1536,
      height: 1024,
    });
    expect(byName['completed']).toMatchObject({
      imageId: image.id,
      totalMs: expect.any(Number),
      queueWaitMs: expect.any(Number),
      providerMs: expect.any(Number),
      finalizeMs: expect.any(Number),
    });

    // Nothing secret in the logs: token, signing secret, hash key, signed URLs.
    const raw = JSON.stringify(worker.log.lines());
    expect(raw).not.toContain(TEST_TOKEN);
    expect(raw).not.toContain(TEST_SIGNING_SECRET);
    expect(raw).not.toContain(config.userHashSecret);
    expect(raw).not.toContain('X-Amz-Signature');
    expect(raw).not.toContain('/files/');

    // The webhook woke the job: a receipt exists for the attempt.
    const receipts = await stack.db.aiProviderWebhookReceipt.count({
      where: { providerAttemptId: attempt!.id },
    });
    expect(receipts).toBeGreaterThanOrEqual(1);
    await worker.stop();
  });
});
