"""The mcpdiff fixture surface on FastMCP (PyPI `fastmcp`, pinned in requirements.txt),
served the way its README documents: `mcp.run(transport="http", host=..., port=...)`,
defaults untouched (no hardening), bound to loopback.

Usage: python server.py PORT

With MCPDIFF_TOOLS=/abs/tools.json (a `mcpdiff toolset generate` file) every tool of the set is
registered too through `mcp.add_tool(Tool subclass)`, FastMCP's documented route for a tool
with a hand-written JSON Schema; each answers with its arguments.
"""

import asyncio
import json
import os
import sys
from typing import Annotated, Any

from fastmcp import Context, FastMCP
from fastmcp.tools import Tool
from fastmcp.tools.base import ToolResult
from mcp_types import TextContent
from pydantic import Field

mcp = FastMCP("mcpdiff-fixture")


def header(token: str) -> Any:
    """`x-mcp-header` through pydantic's json_schema_extra (how extra schema keys are added)."""
    return Field(json_schema_extra={"x-mcp-header": token})


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
    # declared inline: a pydantic model would become a `$ref`, off the `properties` chain
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


class EchoTool(Tool):
    """A generated tool: `parameters` is the raw schema; it answers with its arguments."""

    async def run(self, arguments: dict[str, Any]) -> ToolResult:
        return ToolResult(
            content=[TextContent(type="text", text=json.dumps(arguments))],
            structured_content={"arguments": arguments},
        )


def register_generated_tools() -> None:
    path = os.environ.get("MCPDIFF_TOOLS")
    if not path:
        return
    with open(path, encoding="utf-8") as f:
        definitions = [t["definition"] for t in json.load(f)["tools"]]
    for d in definitions:
        try:
            mcp.add_tool(
                EchoTool(
                    name=d["name"],
                    description=d.get("description") or "A generated tool",
                    parameters=d["inputSchema"],
                    annotations={"readOnlyHint": True},
                )
            )
        except Exception as e:  # noqa: BLE001 - a refusal is what mcpdiff records
            print(f"mcpdiff: add_tool({d['name']!r}) refused: {e}", file=sys.stderr)


register_generated_tools()


if __name__ == "__main__":
    mcp.run(transport="http", host="127.0.0.1", port=int(sys.argv[1]), show_banner=False)
