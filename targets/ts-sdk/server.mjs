// The mcpdiff fixture surface on the official TypeScript SDK (npm @modelcontextprotocol/server
// + @modelcontextprotocol/node, pinned in package-lock.json), served the way the SDK documents
// for plain node:http: the stateless `createMcpHandler` entry adapted with `toNodeHandler`,
// bound to loopback, with the Host/Origin guards the @modelcontextprotocol/node README
// composes in front of a hand-wired node:http server. Defaults otherwise untouched.
//
// Usage: node server.mjs PORT
// With MCPDIFF_TOOLS=/abs/tools.json (a `mcpdiff toolset generate` file) every tool of the set
// is registered too, its raw inputSchema through fromJsonSchema; each answers with its
// arguments. A registration the SDK refuses is logged and skipped (mcpdiff compares
// tools/list with the set).
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createMcpHandler, fromJsonSchema, McpServer, ResourceTemplate } from '@modelcontextprotocol/server';
import { localhostHostValidation, localhostOriginValidation, toNodeHandler } from '@modelcontextprotocol/node';

const port = Number(process.argv[2]);
const toolSet = process.env.MCPDIFF_TOOLS
    ? JSON.parse(readFileSync(process.env.MCPDIFF_TOOLS, 'utf8')).tools.map(t => t.definition)
    : [];
let reportedRefusals = false;
const readOnly = { readOnlyHint: true };
const text = t => ({ content: [{ type: 'text', text: t }] });

// One fresh server per request (the factory createMcpHandler calls); the schemas are given
// as raw JSON Schema through fromJsonSchema so `x-mcp-header` reaches tools/list verbatim.
function factory() {
    const server = new McpServer({ name: 'mcpdiff-fixture', version: '1.0.0' });
    server.registerTool(
        'get_weather',
        {
            description: 'Weather for a location (the plain tool)',
            annotations: readOnly,
            inputSchema: fromJsonSchema({
                type: 'object',
                properties: { location: { type: 'string' } },
                required: ['location']
            })
        },
        async ({ location }) => text(`sunny in ${location}`)
    );
    server.registerTool(
        'execute_sql',
        {
            description: 'Echo the arguments (the tool with x-mcp-header parameters)',
            annotations: readOnly,
            inputSchema: fromJsonSchema({
                type: 'object',
                properties: {
                    region: { type: 'string', 'x-mcp-header': 'Region' },
                    count: { type: 'integer', 'x-mcp-header': 'Count' },
                    flag: { type: 'boolean', 'x-mcp-header': 'Flag' },
                    opt: { type: 'string', 'x-mcp-header': 'Opt' },
                    target: {
                        type: 'object',
                        properties: { region: { type: 'string', 'x-mcp-header': 'TargetRegion' } }
                    },
                    query: { type: 'string' }
                },
                required: ['region', 'query']
            })
        },
        async args => text(JSON.stringify(args))
    );
    server.registerTool(
        'café_menu',
        {
            description: 'A tool whose name is not an HTTP token',
            annotations: readOnly,
            inputSchema: fromJsonSchema({ type: 'object', properties: {} })
        },
        async () => text('espresso, croissant')
    );
    server.registerTool(
        'slow_count',
        {
            description: 'Count to `to`, reporting progress (the streaming tool)',
            annotations: readOnly,
            inputSchema: fromJsonSchema({
                type: 'object',
                properties: { to: { type: 'integer', minimum: 1, maximum: 5 } }
            })
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
