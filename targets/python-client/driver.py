"""mcpdiff client driver on the official Python SDK (PyPI `mcp`).

    .venv/bin/python driver.py <url> <calls.json>

Connects the way the SDK's `Client` docstring shows (`async with Client(url)`, streamable
HTTP for a URL), lists every tool, prints {"kept": [names]} as one JSON line, then calls each
kept tool with each argument object the calls file gives for it
({"calls": [{"tool", "arguments"?}]}), reads each of "reads" (resource URIs) and gets each of
"prompts" (prompt names), and prints {"done": n, "errors": [...]}. mcpdiff records
what the client sent; the driver only does what an application using the SDK would do.
"""

import asyncio
import json
import sys

from mcp import Client


def emit(obj):
    print(json.dumps(obj), flush=True)


async def main(url, calls, names):
    try:
        async with Client(url) as client:
            try:
                listed = await client.list_tools()
            except Exception as e:  # noqa: BLE001 - reported, not handled
                emit({"error": f"tools/list: {e!r}"})
                return 1
            kept = [t.name for t in listed.tools]
            emit({"kept": kept})
            done, errors = 0, []
            for call in calls:
                if call.get("tool") not in kept:
                    continue
                try:
                    await client.call_tool(call["tool"], call.get("arguments"))
                    done += 1
                except Exception as e:  # noqa: BLE001
                    errors.append(f"{call['tool']}: {e!r}")
            for uri in names.get("reads", []):
                try:
                    await client.read_resource(uri)
                    done += 1
                except Exception as e:  # noqa: BLE001
                    errors.append(f"read {uri}: {e!r}")
            for name in names.get("prompts", []):
                try:
                    await client.get_prompt(name)
                    done += 1
                except Exception as e:  # noqa: BLE001
                    errors.append(f"prompt {name}: {e!r}")
            emit({"done": done, "errors": errors})
    except Exception as e:  # noqa: BLE001
        emit({"error": f"connect: {e!r}"})
        return 1
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 3:
        print("usage: driver.py <url> <calls.json>", file=sys.stderr)
        sys.exit(2)
    try:
        with open(sys.argv[2], encoding="utf-8") as f:
            plan = json.load(f)
        calls = plan.get("calls", [])
    except (OSError, ValueError) as e:
        print(f"cannot read calls file {sys.argv[2]}: {e}", file=sys.stderr)
        sys.exit(2)
    sys.exit(asyncio.run(main(sys.argv[1], calls, plan)))
