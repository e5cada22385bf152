-- wrk script for benches/side_by_side.sh: one fixed conformant request, the spec's
-- `tools/call` example (basic/transports/streamable-http.mdx, "Request Metadata"), with the
-- headers a conformant 2026-07-28 client sends (as oracle/src/client.rs conformant_case).
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Accept"] = "application/json, text/event-stream"
wrk.headers["MCP-Protocol-Version"] = "2026-07-28"
wrk.headers["Mcp-Method"] = "tools/call"
wrk.headers["Mcp-Name"] = "get_weather"
wrk.body = '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_weather",'
  .. '"arguments":{"location":"Seattle, WA"},"_meta":{'
  .. '"io.modelcontextprotocol/protocolVersion":"2026-07-28",'
  .. '"io.modelcontextprotocol/clientInfo":{"name":"ExampleClient","version":"1.0.0"},'
  .. '"io.modelcontextprotocol/clientCapabilities":{}}}}'

-- No `response` hook: it would slow wrk down (a Lua call per answer); the script checks the
-- answer once with curl before measuring.
