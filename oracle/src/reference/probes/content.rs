//! The content probes: conformant requests whose answers publish what the content checks
//! (`crate::content`) read, one per rule, so each rule has a carrier of its own.

use super::{call, Probe};
use crate::fixture::{BINARY_RESOURCE, HEADER_TOOL, PLAIN_TOOL, PROMPT, RESOURCE, TEMPLATE};
use crate::rules;
use crate::surface::Surface;
use serde_json::json;

/// Conformant requests of the methods whose results the content rules judge.
pub(super) fn content_probes(s: &Surface) -> Vec<Probe> {
    let c = |id: i64, method: &str, params| call(s, id, method, params);
    // the tool that declares an outputSchema, called conformantly
    let sql = json!({"name": HEADER_TOOL,
        "arguments": {"region": "us-west1", "count": 42, "query": "select 1"}});
    let review = json!({"name": PROMPT, "arguments": {"code": "fn f() {}"}});
    let mut out = vec![
        Probe {
            rule: rules::DISC_SHAPE,
            case: c(40, "server/discover", json!({})),
        },
        Probe {
            rule: rules::DISC_SERVERINFO,
            case: c(41, "server/discover", json!({})),
        },
        Probe {
            rule: rules::CACHE_HINTS,
            case: c(42, "resources/read", json!({"uri": RESOURCE})),
        },
        Probe {
            rule: rules::CACHE_TTL_NONNEG,
            case: c(43, "resources/templates/list", json!({})),
        },
        Probe {
            rule: rules::TOOLS_CAP_DECLARE,
            case: c(44, "server/discover", json!({})),
        },
        Probe {
            rule: rules::RES_CAP_DECLARE,
            case: c(45, "server/discover", json!({})),
        },
        Probe {
            rule: rules::PROMPTS_CAP_DECLARE,
            case: c(46, "server/discover", json!({})),
        },
        Probe {
            rule: rules::TOOLS_LIST_RESPOND,
            case: c(47, "tools/list", json!({})),
        },
        Probe {
            rule: rules::RES_LIST_RESPOND,
            case: c(48, "resources/list", json!({})),
        },
        Probe {
            rule: rules::PROMPTS_LIST_RESPOND,
            case: c(49, "prompts/list", json!({})),
        },
        Probe {
            rule: rules::TOOLS_INPUTSCHEMA_VALID,
            case: c(50, "tools/list", json!({})),
        },
        Probe {
            rule: rules::TOOLS_OUTPUT_CONFORM,
            case: c(51, "tools/call", sql.clone()),
        },
        Probe {
            rule: rules::TOOLS_STRUCTURED_TEXT,
            case: c(52, "tools/call", sql),
        },
        Probe {
            rule: rules::RES_URI_RFC3986,
            case: c(53, "resources/list", json!({})),
        },
        // ids 54 and 55 rotate an id-dependent ordering by different amounts
        Probe {
            rule: rules::TOOLS_ORDER,
            case: c(54, "tools/list", json!({})),
        },
        Probe {
            rule: rules::TOOLS_ORDER,
            case: c(55, "tools/list", json!({})),
        },
        // H2: tools, resources, prompts. A call breaking the tool's inputSchema: the
        // required member missing, then of the wrong type
        Probe {
            rule: rules::TOOLS_VALIDATE_INPUTS,
            case: c(
                56,
                "tools/call",
                json!({"name": PLAIN_TOOL, "arguments": {}}),
            ),
        },
        Probe {
            rule: rules::TOOLS_VALIDATE_INPUTS,
            case: c(
                57,
                "tools/call",
                json!({"name": PLAIN_TOOL, "arguments": {"location": 7}}),
            ),
        },
        Probe {
            rule: rules::RES_BINARY,
            case: c(58, "resources/read", json!({"uri": BINARY_RESOURCE})),
        },
        Probe {
            rule: rules::PROMPTS_MEDIA_B64,
            case: c(59, "prompts/get", review.clone()),
        },
        Probe {
            rule: rules::PROMPTS_EMBEDDED,
            case: c(60, "prompts/get", review),
        },
        Probe {
            rule: rules::TOOLS_NAMES,
            case: c(76, "tools/list", json!({})),
        },
        // a conformant call: its result embeds no resource, or the target declares the
        // `resources` capability (judged on a surface without it, D-129)
        Probe {
            rule: rules::TOOLS_EMBEDDED_RESCAP,
            case: c(
                77,
                "tools/call",
                json!({"name": PLAIN_TOOL, "arguments": {"location": "Lisbon"}}),
            ),
        },
        // prompt arguments that are not strings
        Probe {
            rule: rules::PROMPTS_VALIDATE_ARGS,
            case: c(
                75,
                "prompts/get",
                json!({"name": PROMPT, "arguments": {"code": 7}}),
            ),
        },
        // a resource the target does not publish: -32602, never an empty `contents`
        Probe {
            rule: rules::RES_NO_EMPTY_CONTENTS,
            case: c(
                61,
                "resources/read",
                json!({"uri": "file:///projects/myapp/missing.json"}),
            ),
        },
    ];
    // directory traversal from the listed file resource and from the file template
    let mut id = 62;
    for base in [RESOURCE, TEMPLATE] {
        for uri in crate::traversal::traversal_uris(base) {
            out.push(Probe {
                rule: rules::RES_TRAVERSAL,
                case: c(id, "resources/read", json!({ "uri": uri })),
            });
            id += 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixture;
    use crate::isolation::decide_case;

    #[test]
    fn each_content_probe_isolates_its_rule() {
        let s = fixture::surface();
        // (each on the surface its rule binds: `fixture::surface_for`)
        let decide = |p: &Probe| decide_case(&p.case, &fixture::surface_for(p.rule, &s));
        let missed: Vec<String> = content_probes(&s)
            .iter()
            .filter(|p| !decide(p).isolated.contains(&p.rule))
            .map(|p| format!("{}: {:?}", p.rule, decide(p)))
            .collect();
        assert!(missed.is_empty(), "{missed:#?}");
    }
}
