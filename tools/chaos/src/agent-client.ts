// The agent's side of a chaos run: signs in through the api's auth route and calls the staging
// procedures over HTTP at /api/trpc, as the dashboard does (plain JSON, no transformer).
export interface SubmittedItem {
  originalImageId: string;
  aiJobId: string | null;
  disposition: string;
}

export interface AgentClient {
  submitStaging(assignments: { originalImageId: string; roomType: string; style: string }[]): Promise<SubmittedItem[]>;
  cancelStaging(aiJobId: string): Promise<void>;
}

interface TrpcEnvelope {
  result?: { data: unknown };
  error?: { message: string; data?: { appCode?: string } };
}

export async function signIn(apiUrl: string, credentials: { email: string; password: string }): Promise<AgentClient> {
  const login = await fetch(`${apiUrl}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(credentials),
  });
  if (login.status !== 204) throw new Error(`sign-in failed: HTTP ${login.status}`);
  const cookie = login.headers.getSetCookie().map((header) => header.split(';')[0]).join('; ');

  const mutation = async (procedure: string, input: unknown): Promise<unknown> => {
    const response = await fetch(`${apiUrl}/api/trpc/${procedure}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie },
      body: JSON.stringify(input),
    });
    const body = (await response.json()) as TrpcEnvelope;
    if (!response.ok || body.error !== undefined) {
      throw new Error(`${procedure} failed: HTTP ${response.status} ${body.error?.data?.appCode ?? ''} ${body.error?.message ?? ''}`.trim());
    }
    return body.result?.data;
  };

  return {
    async submitStaging(assignments) {
      const data = (await mutation('ai.submitStaging', { assignments })) as { items: SubmittedItem[] };
      return data.items;
    },
    async cancelStaging(aiJobId) {
      await mutation('ai.cancelStaging', { aiJobId });
    },
  };
}
