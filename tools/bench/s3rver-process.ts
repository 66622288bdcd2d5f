// s3rver in a process of its own for the worker benchmarks: in the harness it would share an event
// loop with the client whose latencies are measured. Prints `{"endpoint": …}` once listening;
// stops on SIGTERM. Usage: node --import tsx tools/bench/s3rver-process.ts <bucket>
import { startS3rver } from '@staging/stack/s3-server';
import { present } from './present';

const s3 = await startS3rver({ buckets: [present(process.argv[2], 'the bucket argument')] });
console.log(JSON.stringify({ endpoint: s3.endpoint }));
process.once('SIGTERM', () => void s3.stop().then(() => process.exit(0)));
