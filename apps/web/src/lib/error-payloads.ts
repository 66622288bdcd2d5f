import { TRPCClientError } from '@trpc/client';
import { z } from 'zod';
import { IssueCode } from '@staging/domain/errors';

// What a failed answer carries comes off the wire: read field by field, and a field of another
// type than ours counts as missing, as in an answer that is not ours.

function lenient<T extends z.ZodType>(schema: T) {
  return schema.optional().catch(undefined);
}

const ZFieldIssue = z.object({
  path: z.array(z.union([z.string(), z.number()])),
  message: z.string(),
  // A code this release does not know reads as an invalid value, as a missing one does.
  code: lenient(z.enum(IssueCode)),
  limit: lenient(z.number()),
});

/** `error.data` as this app's router writes it (AppErrorData) beside tRPC's own httpStatus. */
const ZTrpcErrorData = z.object({
  appCode: lenient(z.string()),
  reason: lenient(z.string()),
  issues: lenient(z.array(ZFieldIssue)),
  retryAfterSeconds: lenient(z.number()),
  itemCount: lenient(z.number()),
  httpStatus: lenient(z.number()),
});

type TrpcErrorData = z.infer<typeof ZTrpcErrorData>;

/**
 * The data of a failed tRPC call; undefined for anything else, and for a call that got no data
 * back, whose answer was not ours (the connection failed, or something in between answered).
 */
export function trpcErrorDataOf(error: unknown): TrpcErrorData | undefined {
  if (!(error instanceof TRPCClientError) || error.data === undefined) return undefined;
  const data = ZTrpcErrorData.safeParse(error.data);
  return data.success ? data.data : {};
}

const ZRestErrorBody = z.object({
  error: lenient(z.object({ code: lenient(z.string()), reason: lenient(z.string()), message: lenient(z.string()) })),
});

/** The code, reason and message of a failed REST answer's `{ error: { … } }` body; none from a body that is not ours. */
export function restErrorFieldsOf(bodyText: string): { code?: string | undefined; reason?: string | undefined; message?: string | undefined } {
  let json: unknown;
  try {
    json = JSON.parse(bodyText);
  } catch {
    return {};
  }
  const body = ZRestErrorBody.safeParse(json);
  return (body.success ? body.data.error : undefined) ?? {};
}
