// mcpdiff client driver on the official TypeScript client SDK:
//   node driver.mjs <url> <calls.json>
// Connects the way the SDK's client guide does (Client + StreamableHTTPClientTransport,
// versionNegotiation mode 'auto' for the 2026-07-28 lifecycle),
// lists every tool, prints {"kept": [names]} as one JSON line, then calls each kept tool with
// each argument object the calls file gives for it ({"calls": [{"tool", "arguments"?}]}), reads
// each of "reads" (resource URIs) and gets each of "prompts" (prompt names), and
// prints {"done": n, "errors": [...]}. mcpdiff records what the client sent; the driver only
// does what an application using the SDK would do.
import { readFileSync } from 'node:fs';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

const [url, callsPath] = process.argv.slice(2);
if (!url || !callsPath) {
  console.error('usage: node driver.mjs <url> <calls.json>');
  process.exit(2);
}
let calls;
let plan;
try {
  plan = JSON.parse(readFileSync(callsPath, 'utf8'));
  calls = plan.calls ?? [];
} catch (e) {
  console.error(`cannot read calls file ${callsPath}: ${e.message}`);
  process.exit(2);
}
// The SDK warns about excluded tools on the console; keep stdout for the JSON lines.
console.warn = (...a) => process.stderr.write(a.join(' ') + '\n');
console.debug = (...a) => process.stderr.write(a.join(' ') + '\n');

// The SDK's default negotiation mode is 'legacy' (initialize); this revision's stateless
// lifecycle (server/discover, per-request _meta and headers) is opted into with mode 'auto'.
const client = new Client(
  { name: 'mcpdiff-ts-client-driver', version: '1.0.0' },
  { versionNegotiation: { mode: 'auto' } },
);
try {
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
} catch (e) {
  console.log(JSON.stringify({ error: `connect: ${e.message}` }));
  process.exit(1);
}
let tools;
try {
  ({ tools } = await client.listTools());
} catch (e) {
  console.log(JSON.stringify({ error: `tools/list: ${e.message}` }));
  process.exit(1);
}
const kept = tools.map((t) => t.name);
console.log(JSON.stringify({ kept }));
let done = 0;
const errors = [];
for (const call of calls) {
  if (!kept.includes(call.tool)) continue;
  const params = { name: call.tool };
  if (call.arguments !== undefined) params.arguments = call.arguments;
  try {
    await client.callTool(params);
    done += 1;
  } catch (e) {
    errors.push(`${call.tool}: ${e.message}`);
  }
}
for (const uri of plan.reads ?? []) {
  try {
    await client.readResource({ uri });
    done += 1;
  } catch (e) {
    errors.push(`read ${uri}: ${e.message}`);
  }
}
for (const name of plan.prompts ?? []) {
  try {
    await client.getPrompt({ name });
    done += 1;
  } catch (e) {
    errors.push(`prompt ${name}: ${e.message}`);
  }
}
console.log(JSON.stringify({ done, errors }));
await client.close().catch(() => {});
process.exit(0);
