"""The mcpdiff fixture surface on the official Python SDK (PyPI `mcp`, pinned in
requirements.txt), served the way the SDK documents: `MCPServer(...).streamable_http_app()`
under uvicorn, defaults untouched (no hardening), bound to loopback.

Usage: python server.py PORT

With MCPDIFF_TOOLS=/abs/tools.json (a `mcpdiff toolset generate` file) every tool of the set is
registered too, each answering with its arguments. A raw JSON Schema cannot go through the
function decorator (pydantic derives the schema from the signature), so the tools are `Tool`
objects handed to `MCPServer(tools=[...])`, the SDK's constructor for prebuilt tools.
"""

import asyncio
import json
import os
import sys
from typing import Annotated, Any

import uvicorn
from pydantic import Field

from mcp.server import MCPServer
from mcp.server.mcpserver import Context
from mcp.server.mcpserver.tools.base import Tool


def _echo() -> str:
    return ""


class EchoTool(Tool):
    """A generated tool: its `parameters` are the raw schema; it answers with its arguments."""

    async def run(self, arguments: dict[str, Any], context: Any, convert_result: bool = False) -> Any:
        text = json.dumps(arguments)
        return self.fn_metadata.convert_result(text) if convert_result else text


def generated_tools() -> list[Tool]:
    path = os.environ.get("MCPDIFF_TOOLS")
    if not path:
        return []
    with open(path, encoding="utf-8") as f:
        definitions = [t["definition"] for t in json.load(f)["tools"]]
    out: list[Tool] = []
    for d in definitions:
        base = Tool.from_function(_echo, name=d["name"], description=d.get("description") or "A generated tool",
                                  annotations={"readOnlyHint": True})
        fields = {k: getattr(base, k) for k in type(base).model_fields}
        fields["parameters"] = d["inputSchema"]
        out.append(EchoTool(**fields))
    return out


mcp = MCPServer("mcpdiff-fixture", tools=generated_tools())


def header(token: str, **extra: Any) -> Any:
    """`x-mcp-header` through pydantic's json_schema_extra: the SDK's own way to add schema keys."""
    return Field(json_schema_extra={"x-mcp-header": token, **extra})


@mcp.tool(annotations={"readOnlyHint": True})
def get_weather(location: str) -> str:
    """Weather for a location (the plain tool)."""
    return f"sunny in {location}"


@mcp.tool(annotations={"readOnlyHint": True})
def execute_sql(
    region: Annotated[str, header("Region")],
    query: str,
    # `T = None`, not `T | None`: an Optional becomes `anyOf`, and the SDK only accepts
    # x-mcp-header on a property whose `type` is a plain string/integer/boolean
    count: Annotated[int, header("Count")] = None,  # type: ignore[assignment]
    flag: Annotated[bool, header("Flag")] = None,  # type: ignore[assignment]
    opt: Annotated[str, header("Opt")] = None,  # type: ignore[assignment]
    # nested annotation: pydantic models become `$ref`s, which the SDK rejects as off the
    # pure `properties` chain, so the nested object is declared inline
    target: Annotated[
        # the published schema says what the type validates (an object of string values, not
        # null: `T = None`, as above), so the SDK's own validation and the schema a client
        # reads agree
        dict[str, str],
        Field(
            json_schema_extra={
                "type": "object",
                "properties": {"region": {"type": "string", "x-mcp-header": "TargetRegion"}},
                "additionalProperties": {"type": "string"},
            }
        ),
    ] = None,  # type: ignore[assignment]
) -> str:
    """Echo the arguments (the tool with x-mcp-header parameters)."""
    return json.dumps(
        {"region": region, "query": query, "count": count, "flag": flag, "opt": opt, "target": target}
    )


@mcp.tool(annotations={"readOnlyHint": True})
def cafe_menu() -> str:
    """A tool without parameters."""
    return "espresso, croissant"


@mcp.tool(annotations={"readOnlyHint": True})
async def slow_count(ctx: Context, to: Annotated[int, Field(ge=1, le=5)] = 3) -> str:
    """Count to `to`, reporting progress on the way (the streaming tool)."""
    for i in range(1, to + 1):
        await ctx.report_progress(i, to)
        await asyncio.sleep(0.01)
    return str(to)


@mcp.resource("file:///projects/myapp/config.json", mime_type="application/json")
def config() -> str:
    return json.dumps({"name": "myapp", "debug": False})


@mcp.resource("file:///logs/{day}.log", mime_type="text/plain")
def log(day: str) -> str:
    return f"log of {day}\n"


@mcp.prompt()
def code_review(code: str = "") -> str:
    """Review some code."""
    return f"Please review this code:\n{code}"


if __name__ == "__main__":
    port = int(sys.argv[1])
    uvicorn.run(mcp.streamable_http_app(), host="127.0.0.1", port=port, log_level="warning")
