// The mcpdiff fixture surface on the official TypeScript SDK (npm @modelcontextprotocol/server
// + @modelcontextprotocol/node, pinned in package-lock.json), served the way the SDK documents
// for plain node:http: the stateless `createMcpHandler` entry adapted with `toNodeHandler`,
// bound to loopback, with the Host/Origin guards the @modelcontextprotocol/node README
// composes in front of a hand-wired node:http server. Defaults otherwise untouched.
//
// The fixture's tools are declared as the SDK's server guide declares them: `registerTool` with
// a Zod `inputSchema` ("a Zod schema — the only schema you write"), `x-mcp-header` added with
// Zod's `.meta()` (which the SDK's JSON Schema conversion publishes); handlers return plain
// result objects as the guide's examples do. Zod's conversion adds what Zod always adds
// (`$schema`, `additionalProperties: false`, the safe-integer bounds of `z.int()`); see
// target.toml.
//
// Usage: node server.mjs PORT
// With MCPDIFF_TOOLS=/abs/tools.json (a `mcpdiff toolset generate` file) every tool of the set
// is registered too; each answers with its arguments. A generated tool's schema is JSON Schema
// by nature, so it goes through `fromJsonSchema` (the SDK's route for a raw JSON Schema). A
// registration the SDK refuses is logged and skipped (mcpdiff compares tools/list with the set).
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createMcpHandler, fromJsonSchema, McpServer, ResourceTemplate } from '@modelcontextprotocol/server';
import { localhostHostValidation, localhostOriginValidation, toNodeHandler } from '@modelcontextprotocol/node';
import * as z from 'zod/v4';

const port = Number(process.argv[2]);
const toolSet = process.env.MCPDIFF_TOOLS
    ? JSON.parse(readFileSync(process.env.MCPDIFF_TOOLS, 'utf8')).tools.map(t => t.definition)
    : [];
let reportedRefusals = false;
const readOnly = { readOnlyHint: true };
const text = t => ({ content: [{ type: 'text', text: t }] });

// One fresh server per request (the factory createMcpHandler calls).
function factory() {
    const server = new McpServer({ name: 'mcpdiff-fixture', version: '1.0.0' });
    server.registerTool(
        'get_weather',
        {
            description: 'Weather for a location (the plain tool)',
            annotations: readOnly,
            inputSchema: z.object({ location: z.string() })
        },
        async ({ location }) => text(`sunny in ${location}`)
    );
    server.registerTool(
        'execute_sql',
        {
            description: 'Echo the arguments (the tool with x-mcp-header parameters)',
            annotations: readOnly,
            inputSchema: z.object({
                region: z.string().meta({ 'x-mcp-header': 'Region' }),
                count: z.int().meta({ 'x-mcp-header': 'Count' }).optional(),
                flag: z.boolean().meta({ 'x-mcp-header': 'Flag' }).optional(),
                opt: z.string().meta({ 'x-mcp-header': 'Opt' }).optional(),
                target: z
                    .object({ region: z.string().meta({ 'x-mcp-header': 'TargetRegion' }).optional() })
                    .optional(),
                query: z.string()
            })
        },
        async args => text(JSON.stringify(args))
    );
    server.registerTool(
        'cafe_menu',
        {
            description: 'A tool without parameters',
            annotations: readOnly,
            inputSchema: z.object({})
        },
        async () => text('espresso, croissant')
    );
    server.registerTool(
        'slow_count',
        {
            description: 'Count to `to`, reporting progress (the streaming tool)',
            annotations: readOnly,
            inputSchema: z.object({ to: z.int().min(1).max(5).optional() })
        },
        async ({ to = 3 }, ctx) => {
            const token = ctx?.mcpReq?._meta?.progressToken;
            for (let i = 1; i <= to; i++) {
                if (token !== undefined && ctx?.mcpReq?.notify) {
                    await ctx.mcpReq.notify({
                        method: 'notifications/progress',
                        params: { progressToken: token, progress: i, total: to }
                    });
                }
                await new Promise(r => setTimeout(r, 10));
            }
            return text(String(to));
        }
    );
    for (const def of toolSet) {
        try {
            server.registerTool(
                def.name,
                {
                    description: def.description ?? 'A generated tool',
                    annotations: readOnly,
                    inputSchema: fromJsonSchema(def.inputSchema)
                },
                async args => ({ ...text(JSON.stringify(args)), structuredContent: { arguments: args } })
            );
        } catch (e) {
            // once per process: the factory runs per request
            if (!reportedRefusals) console.error(`mcpdiff: registerTool('${def.name}') refused: ${e?.message ?? e}`);
        }
    }
    reportedRefusals = true;
    server.registerResource(
        'config',
        'file:///projects/myapp/config.json',
        { mimeType: 'application/json' },
        async uri => ({ contents: [{ uri: uri.href, text: JSON.stringify({ name: 'myapp', debug: false }) }] })
    );
    server.registerResource(
        'log',
        new ResourceTemplate('file:///logs/{day}.log', { list: undefined }),
        { mimeType: 'text/plain' },
        async (uri, { day }) => ({ contents: [{ uri: uri.href, text: `log of ${day}\n` }] })
    );
    server.registerPrompt(
        'code_review',
        { description: 'Review some code' },
        async () => ({ messages: [{ role: 'user', content: { type: 'text', text: 'Please review this code.' } }] })
    );
    return server;
}

const handler = toNodeHandler(createMcpHandler(factory));
const validateHost = localhostHostValidation();
const validateOrigin = localhostOriginValidation();

createServer(async (req, res) => {
    if (!validateHost(req, res) || !validateOrigin(req, res)) return;
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    if (path !== '/mcp') {
        res.writeHead(404).end();
        return;
    }
    await handler(req, res);
}).listen(port, '127.0.0.1', () => console.log(`ts-sdk fixture on http://127.0.0.1:${port}/mcp`));
